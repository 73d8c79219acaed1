import { sql, type Kysely } from "kysely";

// The grammar check (issue 23, spec 3 §2–§4, ADR 070): one row per uploaded manuscript, its two statuses (score and
// error count: processing → completed / failed, the count also skipped), the engine's findings, and the captcha
// challenges already spent (single use: a replayed answer is refused even inside its ten minutes).
//
// - Owner: a user, or (before sign-in) the browser's draft cookie, stored hashed like an order form's
//   (order_forms.draft_key_hash): a leaked database does not hand out live cookies. Claimed at sign-in.
// - The file is a `files` row of the new kind 'assessment' (the upload pipeline's checks and quotas hold for it).
// - score is stored in tenths (0–100): one decimal is what the spec shows, and an integer compares exactly.
// - order_form_id / order_file_id: the order form draft "Get Started" attached a copy of the file to, so the
//   link (a GET) attaches it once however often it is followed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table files drop constraint if exists files_kind_check`.execute(db);
  await sql`alter table files add constraint files_kind_check check (kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference', 'deliverable', 'support', 'assessment'))`.execute(
    db,
  );

  await db.schema
    .createTable("language_assessments")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("draft_key_hash", "text")
    .addColumn("file_id", "uuid", (c) => c.notNull().references("files.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("score_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("processing")
        .check(sql`score_status in ('processing', 'completed', 'failed')`),
    )
    .addColumn("error_count_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("processing")
        .check(sql`error_count_status in ('processing', 'completed', 'failed', 'skipped')`),
    )
    .addColumn("score_tenths", "integer", (c) => c.check(sql`score_tenths between 0 and 100`))
    .addColumn("percentile", "integer", (c) => c.check(sql`percentile between 0 and 100`))
    .addColumn("error_count", "jsonb")
    .addColumn("issues", "jsonb")
    .addColumn("words", "integer")
    .addColumn("dialect", "text", (c) => c.check(sql`dialect in ('american', 'british')`))
    .addColumn("failure_reason", "text")
    .addColumn("order_form_id", "text")
    .addColumn("order_file_id", "uuid")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("completed_at", "timestamptz")
    .addColumn("archived_at", "timestamptz")
    .addCheckConstraint("language_assessments_owner", sql`user_id is not null or draft_key_hash is not null`)
    .execute();
  await sql`create index language_assessments_user_idx on language_assessments (user_id, created_at desc) where archived_at is null`.execute(
    db,
  );
  await sql`create index language_assessments_draft_idx on language_assessments (draft_key_hash) where user_id is null`.execute(db);
  // The portal's own curve reads every completed score.
  await sql`create index language_assessments_completed_idx on language_assessments (score_tenths) where score_status = 'completed'`.execute(
    db,
  );

  await db.schema
    .createTable("captcha_spent")
    // sha256 of the challenge's signature (proof of work) or of the fallback token: never the answer itself.
    .addColumn("challenge_hash", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("captcha_spent_expires_idx").on("captcha_spent").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("captcha_spent").ifExists().execute();
  await db.schema.dropTable("language_assessments").ifExists().execute();
  await sql`delete from files where kind = 'assessment'`.execute(db);
  await sql`alter table files drop constraint if exists files_kind_check`.execute(db);
  await sql`alter table files add constraint files_kind_check check (kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference', 'deliverable', 'support'))`.execute(
    db,
  );
}
