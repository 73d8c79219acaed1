import type { Kysely } from "kysely";

// Re-edit (rework) order forms: the order being reworked and what the editor should look at.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("order_forms")
    .addColumn("rework_of_order_id", "integer", (c) => c.references("orders.id"))
    .addColumn("rework_instructions", "text")
    .execute();
  await db.schema
    .alterTable("orders")
    .addColumn("rework_of_order_id", "integer", (c) => c.references("orders.id"))
    .execute();
  await db.schema.createIndex("order_forms_rework_idx").on("order_forms").column("rework_of_order_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("rework_of_order_id").execute();
  await db.schema.dropIndex("order_forms_rework_idx").ifExists().execute();
  await db.schema.alterTable("order_forms").dropColumn("rework_of_order_id").dropColumn("rework_instructions").execute();
}
