import type { Kysely } from "kysely";

// Optional registration fields of spec 1 §3 that had no column yet (issue 9 §3.15): the workplace, and the
// free text of the "How did you find us?" answer "other".
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("workplace", "text").addColumn("other_found_us", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("workplace").dropColumn("other_found_us").execute();
}
