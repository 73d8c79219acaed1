import { sql, type Kysely } from "kysely";

// WeChat QR sign-in (spec 1 §3, §4, §7; ADR 004): one row per QR session. The
// login code is the public handle (it is in the QR image); the browser that
// created the session is bound to it by the SHA-256 of a secret kept in an
// HttpOnly cookie, so the code alone signs nobody in.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("wechat_login_sessions")
    .addColumn("login_code", "text", (c) => c.primaryKey())
    .addColumn("ticket", "text", (c) => c.notNull().unique())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("binding_hash", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'scanned', 'confirmed', 'expired', 'cancelled', 'consumed')`),
    )
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("redirect", "text")
    .addColumn("origin", "text")
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("scanned_at", "timestamptz")
    .addColumn("confirmed_at", "timestamptz")
    .addColumn("consumed_at", "timestamptz")
    .execute();
  await db.schema.createIndex("wechat_login_sessions_expires_idx").on("wechat_login_sessions").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("wechat_login_sessions").ifExists().execute();
}
