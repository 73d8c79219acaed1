import type { Kysely } from "kysely";

// Issue 10 §8: an order placed while staff viewed the portal as the researcher names that staff member.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("impersonator_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("impersonator_id").execute();
}
