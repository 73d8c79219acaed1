import type { Kysely } from "kysely";

// A job that sends mail may be killed after it wrote the outbox row and before it finished (issue 14, ADR 046):
// its retry must find that row again instead of writing a second one. The sender names the message with a
// key that is the same on every attempt (e.g. `order-history:<id>:<recipient>`); the unique index makes the
// second insert a no-op. Mail sent without a key (most of it: a request's own mail) keeps null, which the
// index does not constrain.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mail_outbox").addColumn("dedupe_key", "text").execute();
  await db.schema.createIndex("mail_outbox_dedupe_key").unique().on("mail_outbox").column("dedupe_key").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("mail_outbox_dedupe_key").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("dedupe_key").execute();
}
