import { sql, type Kysely } from "kysely";

// E-mail ownership (issue 10 §4, ADR 026): when the address of an account was proved to be its owner's (a signed
// link from the verification mail, or a completed password reset). Accounts that exist already are counted as
// verified from their creation: they registered under the old rules and have received our mail since; asking
// every existing customer to confirm would cut them off from their quotes and notifications overnight.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email_verified_at", "timestamptz").execute();
  await sql`update users set email_verified_at = created_at`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
