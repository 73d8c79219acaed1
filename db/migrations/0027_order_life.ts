import { sql, type Kysely } from "kysely";

// The order after placing (issue 11, spec 2 §1–§9, ADR 028…): its states and history, the files delivered to the
// researcher, the editing certificate, support requests, and bank-transfer payments recorded against invoices.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("completed_at", "timestamptz")
    .addColumn("cancelled_at", "timestamptz")
    .addColumn("status_changed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // Bumped by every write to the order (transitions, edits): optimistic checks and cache keys.
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    // Spec 2 §6 admin-created orders and their admin options.
    .addColumn("admin_created", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("suppress_invoice_creation", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("require_customer_notification", "boolean", (c) => c.notNull().defaultTo(true))
    // Staff may release the files of an unpaid order (spec 2 §3 overrideDownloadAvailable).
    .addColumn("override_download_available", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("style_of_english", "text")
    .addColumn("journal", "jsonb")
    .addColumn("service_answers", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("notification_emails", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  // Files of two new kinds live in the same store: completed work delivered to the researcher, and attachments
  // of support requests (a proof of payment).
  await sql`alter table files drop constraint if exists files_kind_check`.execute(db);
  await sql`alter table files add constraint files_kind_check check (kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference', 'deliverable', 'support'))`.execute(
    db,
  );
  // Orders placed before this migration were shown as in progress; they keep that state.
  await db.schema.createIndex("orders_status_idx").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_user_created_idx").on("orders").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("order_history")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    // Who did it: a staff member, the researcher, or null for the portal itself (a job, a payment notice).
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("impersonator_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("note", "text")
    .addColumn("data", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // When the researcher was e-mailed about it (the notification job claims the row first: at most one mail).
    .addColumn("notified_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("order_history_order_idx").on("order_history").columns(["order_id", "id"]).execute();

  await db.schema
    .createTable("deliverables")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    // The file's name in URLs (/deliverables/{key}): short, random, unique within its order.
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("file_id", "uuid", (c) => c.notNull().references("files.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("uploaded_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("removed_at", "timestamptz")
    .addUniqueConstraint("deliverables_order_key", ["order_id", "key"])
    .execute();

  await db.schema
    .createTable("certificates")
    .addColumn("order_id", "integer", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    // 16 characters of a 32-letter alphabet without 0/O/1/I: 80 bits of randomness.
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("authors", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("services", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // The files certified: name, size and SHA-256 of each deliverable when the certificate was issued.
    .addColumn("files", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("issued_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("issued_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();

  await db.schema
    .createTable("support_requests")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    // general | inactive-service | proof-of-payment
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("subject", "text")
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("file_id", "uuid", (c) => c.references("files.id"))
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("closed_at", "timestamptz")
    .addColumn("closed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("support_requests_status_idx").on("support_requests").columns(["status", "created_at"]).execute();

  // Every change of an invoice's balance is a ledger row (CONVENTIONS "Money").
  await db.schema
    .createTable("invoice_payments")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("invoice_number", "text", (c) => c.notNull().references("invoices.number"))
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("payment_method_id", "integer", (c) => c.notNull())
    // The bank's reference of the transfer; one transfer is recorded once.
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("received_on", "date", (c) => c.notNull())
    .addColumn("recorded_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("invoice_payments_reference", ["invoice_number", "reference"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table files drop constraint if exists files_kind_check`.execute(db);
  await sql`alter table files add constraint files_kind_check check (kind in ('main', 'figure', 'table', 'main_reference', 'figure_reference', 'table_reference'))`.execute(
    db,
  );
  for (const t of ["invoice_payments", "support_requests", "certificates", "deliverables", "order_history"])
    await db.schema.dropTable(t).execute();
  await db.schema.dropIndex("orders_status_idx").execute();
  await db.schema.dropIndex("orders_user_created_idx").execute();
  await db.schema
    .alterTable("orders")
    .dropColumn("completed_at")
    .dropColumn("cancelled_at")
    .dropColumn("status_changed_at")
    .dropColumn("updated_at")
    .dropColumn("version")
    .dropColumn("admin_created")
    .dropColumn("suppress_invoice_creation")
    .dropColumn("require_customer_notification")
    .dropColumn("override_download_available")
    .dropColumn("style_of_english")
    .dropColumn("journal")
    .dropColumn("service_answers")
    .dropColumn("notification_emails")
    .execute();
}
