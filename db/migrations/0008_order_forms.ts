import { sql, type Kysely } from "kysely";

// The order form (wizard state on the server), placed orders, their invoices, and price quotes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("order_forms")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    // Anonymous drafts belong to a browser: the hash of the random value in its draft cookie.
    .addColumn("draft_key_hash", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("rework", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("current_step", "text", (c) => c.notNull().defaultTo("get-started"))
    .addColumn("customer_goal", "text", (c) => c.notNull().defaultTo("manuscript"))
    .addColumn("upload_files_later", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("word_count", "integer")
    .addColumn("language_id", "integer", (c) => c.references("languages.id"))
    .addColumn("selections", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("decline_editing", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("delivery_tier", "text", (c) => c.notNull().defaultTo("standard"))
    .addColumn("bundle_interest", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("bundle_answers", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("bundle_id", "integer")
    .addColumn("project_title", "text")
    .addColumn("area_of_study_id", "integer")
    .addColumn("style_of_english", "text")
    .addColumn("journal", "jsonb")
    .addColumn("referral_emails", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("promo_code", "text")
    .addColumn("currency_iso", "char(3)", (c) => c.notNull().defaultTo("USD"))
    .addColumn("duplicate_choice", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("placed_at", "timestamptz")
    .execute();
  await db.schema.createIndex("order_forms_user_idx").on("order_forms").columns(["user_id", "status"]).execute();
  await db.schema.createIndex("order_forms_draft_idx").on("order_forms").column("draft_key_hash").execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("external_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
    // One order per order form: placing twice returns the first order (idempotent).
    .addColumn("order_form_id", "text", (c) => c.notNull().unique().references("order_forms.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("subtotal", "bigint", (c) => c.notNull())
    .addColumn("total", "bigint", (c) => c.notNull())
    .addColumn("line_items", "jsonb", (c) => c.notNull())
    .addColumn("discounts", "jsonb", (c) => c.notNull())
    .addColumn("deadline", "timestamptz")
    .addColumn("delivery_tier", "text", (c) => c.notNull())
    .addColumn("word_count", "integer")
    .addColumn("language_id", "integer")
    .addColumn("area_of_study_id", "integer")
    .addColumn("payment_method_id", "integer", (c) => c.notNull())
    .addColumn("purchase_order", "text")
    .addColumn("paid", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("orders_user_idx").on("orders").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("invoices")
    .addColumn("number", "text", (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("balance", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("due_at", "timestamptz")
    .execute();
  await db.schema.createIndex("invoices_user_idx").on("invoices").columns(["user_id", "status"]).execute();

  await db.schema
    .createTable("price_quotes")
    .addColumn("estimate_id", "text", (c) => c.primaryKey())
    .addColumn("order_form_id", "text", (c) => c.notNull().references("order_forms.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("valid_until", "timestamptz", (c) => c.notNull())
    .execute();

  // External ids and invoice numbers come from sequences: unique and readable.
  await sql`create sequence order_external_seq start 100001`.execute(db);
  await sql`create sequence invoice_number_seq start 500001`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop sequence if exists invoice_number_seq`.execute(db);
  await sql`drop sequence if exists order_external_seq`.execute(db);
  for (const t of ["price_quotes", "invoices", "orders", "order_forms"]) await db.schema.dropTable(t).ifExists().execute();
}
