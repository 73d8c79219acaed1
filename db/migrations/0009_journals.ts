import { sql, type Kysely } from "kysely";

// Journals for the target-journal search (spec 1 §5: 3+ characters; spec 2 §9: 10 suggestions).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("journals")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("issn", "text")
    .addColumn("publisher", "text")
    .addColumn("url", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("journals").ifExists().execute();
}
