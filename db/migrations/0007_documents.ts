import { sql, type Kysely } from "kysely";

// Uploaded files, their analysis (word count, language) and the durable job queue.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("files")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("owner_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    // The anonymous draft (order form cookie) a file was uploaded to, kept after it is claimed.
    .addColumn("draft_key", "text")
    .addColumn("order_form_id", "text")
    .addColumn("kind", "text", (c) =>
      c.notNull().check(sql`kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference')`),
    )
    .addColumn("original_name", "text", (c) => c.notNull())
    .addColumn("stored_name", "text", (c) => c.notNull().unique())
    .addColumn("size_bytes", "bigint", (c) => c.notNull().check(sql`size_bytes > 0`))
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("sha256", "char(64)", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deleted_at", "timestamptz")
    .addCheckConstraint("files_owner_or_draft", sql`owner_user_id is not null or draft_key is not null`)
    .execute();
  await db.schema.createIndex("files_owner_idx").on("files").column("owner_user_id").where(sql.ref("deleted_at"), "is", null).execute();
  await db.schema.createIndex("files_draft_idx").on("files").column("draft_key").where(sql.ref("deleted_at"), "is", null).execute();
  await db.schema.createIndex("files_order_form_idx").on("files").column("order_form_id").execute();

  await db.schema
    .createTable("document_analyses")
    .addColumn("file_id", "uuid", (c) => c.primaryKey().references("files.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'done', 'failed')`),
    )
    .addColumn("word_count", "integer")
    .addColumn("language_id", "integer", (c) => c.references("languages.id"))
    .addColumn("language_code", "text")
    .addColumn("error", "text")
    .addColumn("analysed_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`status in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) =>
      c
        .notNull()
        .defaultTo(5)
        .check(sql`max_attempts > 0`),
    )
    .addColumn("run_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("locked_at", "timestamptz")
    .addColumn("locked_by", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  // What a worker scans: queued jobs by due time, and running jobs by lock age (stale-lock recovery).
  await sql`create index jobs_queued_idx on jobs (run_at, id) where status = 'queued'`.execute(db);
  await sql`create index jobs_running_idx on jobs (locked_at) where status = 'running'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["jobs", "document_analyses", "files"]) await db.schema.dropTable(table).ifExists().execute();
}
