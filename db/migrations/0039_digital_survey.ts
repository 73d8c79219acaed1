import { sql, type Kysely } from "kysely";

// The digital tools' survey (issue 24, ADR 074): our own short form instead of an external survey script. One row per
// answer: who (the researcher; kept when the account goes: answers are anonymous statistics then), which area, the
// usefulness 1–5, would recommend, and free text up to 2,000 characters.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("digital_survey_answers")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("area", "text", (c) => c.notNull().check(sql`area in ('digital-editing', 'digital-translations')`))
    .addColumn("usefulness", "integer", (c) => c.notNull().check(sql`usefulness between 1 and 5`))
    .addColumn("recommend", "boolean", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.check(sql`char_length(comment) <= 2000`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index digital_survey_answers_created_idx on digital_survey_answers (created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("digital_survey_answers").execute();
}
