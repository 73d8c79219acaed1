import { sql, type Kysely } from "kysely";

// Digital editing and digital translation (issue 24, spec 3 §2–§9, ADR 073).
//
// - digital_purchases: what a researcher bought (the editing subscription, a translation package) or was given
//   (the Chinese trial: price 0, no invoice). A bought one has an invoice of the new kind 'digital' and is
//   `pending` until billing settles that invoice in full (then `active`, once) or the payment is declined (`void`).
//   A translation package counts its uses: uses_remaining never goes below 0 (CHECK) and is spent by one
//   conditional UPDATE (server/digital/spend.ts). receipt_code is the success page's handle (unique, unguessable).
// - digital_edits / digital_orders: one uploaded .doc/.docx each (a `files` row of the new kind 'digital'), its
//   status (processing → completed / failed), the outputs stored as files of the owner (kind 'digital' too).
//   A translation names the purchase whose use it spent.
// - digital_user_state: per-user facts: the editing trial flag staff may set, the "has uploaded" flags (display
//   types), when the Chinese trial was granted, and the file of the last create refused for its word count.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table files drop constraint if exists files_kind_check`.execute(db);
  await sql`alter table files add constraint files_kind_check check (kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference', 'deliverable', 'support', 'assessment', 'digital'))`.execute(
    db,
  );
  await sql`alter table invoices drop constraint if exists invoices_kind_check`.execute(db);
  await sql`alter table invoices add constraint invoices_kind_check check (kind in ('order', 'prepayment', 'digital'))`.execute(db);
  await sql`alter table invoices add constraint invoices_digital_amount check (kind <> 'digital' or amount > 0)`.execute(db);

  await db.schema
    .createTable("digital_purchases")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('editing', 'translation')`))
    .addColumn("offer_identity", "text", (c) => c.notNull())
    .addColumn("invoice_number", "text", (c) => c.references("invoices.number"))
    .addColumn("price", "bigint", (c) => c.notNull().check(sql`price >= 0`))
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("starts_at", "timestamptz")
    .addColumn("ends_at", "timestamptz")
    .addColumn("months", "integer", (c) => c.notNull())
    .addColumn("uses_total", "integer", (c) => c.check(sql`uses_total > 0`))
    .addColumn("uses_remaining", "integer", (c) => c.check(sql`uses_remaining >= 0`))
    .addColumn("allowed_languages", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("receipt_code", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'active', 'void')`),
    )
    .addColumn("trial", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("activated_at", "timestamptz")
    .addCheckConstraint("digital_purchases_uses", sql`(type = 'translation') = (uses_total is not null and uses_remaining is not null)`)
    .addCheckConstraint("digital_purchases_uses_le_total", sql`uses_remaining is null or uses_remaining <= uses_total`)
    .addCheckConstraint("digital_purchases_active_dates", sql`status <> 'active' or (starts_at is not null and ends_at is not null)`)
    .execute();
  await sql`create index digital_purchases_user_idx on digital_purchases (user_id, type, ends_at) where status = 'active'`.execute(db);
  await sql`create unique index digital_purchases_invoice_idx on digital_purchases (invoice_number) where invoice_number is not null`.execute(
    db,
  );
  // The Chinese trial is granted once per user, whatever races.
  await sql`create unique index digital_purchases_trial_idx on digital_purchases (user_id) where trial`.execute(db);

  await db.schema
    .createTable("digital_edits")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("file_id", "uuid", (c) => c.notNull().references("files.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("style_of_english", "text", (c) => c.notNull().check(sql`style_of_english in ('British English', 'American English')`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("processing")
        .check(sql`status in ('processing', 'completed', 'failed')`),
    )
    .addColumn("tracked_file_id", "uuid", (c) => c.references("files.id"))
    .addColumn("clean_file_id", "uuid", (c) => c.references("files.id"))
    .addColumn("changes", "integer")
    .addColumn("words", "integer")
    .addColumn("failure_reason", "text")
    .addColumn("order_form_id", "text")
    .addColumn("order_file_id", "uuid")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("completed_at", "timestamptz")
    .addColumn("archived_at", "timestamptz")
    .execute();
  await sql`create index digital_edits_user_idx on digital_edits (user_id, created_at desc) where archived_at is null`.execute(db);

  await db.schema
    .createTable("digital_orders")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) =>
      c
        .notNull()
        .defaultTo("translation")
        .check(sql`type in ('translation')`),
    )
    .addColumn("file_id", "uuid", (c) => c.notNull().references("files.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull().check(sql`language in ('es_ES', 'pt_BR', 'zh_CN')`))
    .addColumn("purchase_id", "uuid", (c) => c.notNull().references("digital_purchases.id"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("processing")
        .check(sql`status in ('processing', 'completed', 'failed')`),
    )
    .addColumn("output_file_id", "uuid", (c) => c.references("files.id"))
    .addColumn("engine", "text", (c) => c.check(sql`engine in ('apertium', 'sandbox')`))
    .addColumn("words", "integer")
    .addColumn("failure_reason", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("completed_at", "timestamptz")
    .addColumn("archived_at", "timestamptz")
    .execute();
  await sql`create index digital_orders_user_idx on digital_orders (user_id, created_at desc) where archived_at is null`.execute(db);

  await db.schema
    .createTable("digital_user_state")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("editing_trial", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("has_uploaded_edit", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("has_uploaded_translation", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("chinese_trial_granted_at", "timestamptz")
    .addColumn("word_count_exceeded_file_id", "uuid")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("digital_user_state").ifExists().execute();
  await db.schema.dropTable("digital_orders").ifExists().execute();
  await db.schema.dropTable("digital_edits").ifExists().execute();
  await db.schema.dropTable("digital_purchases").ifExists().execute();
  await sql`delete from invoice_payments p using invoices i where i.number = p.invoice_number and i.kind = 'digital'`.execute(db);
  await sql`delete from invoices where kind = 'digital'`.execute(db);
  await sql`alter table invoices drop constraint if exists invoices_digital_amount`.execute(db);
  await sql`alter table invoices drop constraint if exists invoices_kind_check`.execute(db);
  await sql`alter table invoices add constraint invoices_kind_check check (kind in ('order', 'prepayment'))`.execute(db);
  await sql`delete from files where kind = 'digital'`.execute(db);
  await sql`alter table files drop constraint if exists files_kind_check`.execute(db);
  await sql`alter table files add constraint files_kind_check check (kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference', 'deliverable', 'support', 'assessment'))`.execute(
    db,
  );
}
