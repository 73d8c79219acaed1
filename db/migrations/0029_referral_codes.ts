import { sql, type Kysely } from "kysely";

// The researcher dashboard's referral link (issue 11 §3, spec 2 §2 "Widget row", ADR 031): every user has a
// referral code, 12 characters of the certificate codes' alphabet (no 0/O/1/I: read aloud and typed without
// confusion), drawn by the database so every existing and every new account has one without a write on the
// page that shows it. 60 random bits: a clash is not expected in any number of accounts this portal will see,
// and the unique index refuses one rather than letting two people share a link.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function new_referral_code() returns text language sql volatile as $$
      select string_agg(substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', 1 + floor(random() * 32)::int, 1), '')
      from generate_series(1, 12)
    $$`.execute(db);
  await db.schema
    .alterTable("users")
    .addColumn("referral_code", "text", (c) => c.notNull().defaultTo(sql`new_referral_code()`))
    .execute();
  await db.schema.createIndex("users_referral_code_key").unique().on("users").column("referral_code").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("referral_code").execute();
  await sql`drop function new_referral_code()`.execute(db);
}
