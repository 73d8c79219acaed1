import { sql, type Kysely } from "kysely";

// Payments and invoices (issue 12, ADR 034). One row per payment attempt with a provider (card, PayPal, Alipay,
// WeChat Pay, UnionPay, boleto, Allpago) or an internal method (voucher); every event a provider sends us
// (return, notification, refund) is a payment_events row, unique per (provider, event id) so a replayed
// notification is recorded once and changes nothing. Money still reaches an invoice only through the
// invoice_payments ledger, which now names the payment it came from and may hold refunds and write-offs.
// Idempotency keys keep the first answer of a payment request (Stripe's semantics, PAYMENTS.md).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("payments")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // order-form (the wizard, before its order exists), invoices (one or many), prepay, digital
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("order_form_id", "text", (c) => c.references("order_forms.id").onDelete("set null"))
    .addColumn("invoice_numbers", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("method_id", "integer", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("sandbox", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('processing', 'pending', 'succeeded', 'failed', 'cancelled', 'refunded')`),
    )
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    // Units of currency_iso per 1 USD on the day, when the amount was converted from the invoices' currency.
    .addColumn("exchange_rate", sql`numeric(18,8)`)
    .addColumn("provider_ref", "text")
    // Billing address, tax identification, installments, Brazil choice, FAPESP process, purchase order.
    .addColumn("details", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // What the researcher must do next: redirect, auto-submitted form, QR code, boleto.
    .addColumn("next_action", "jsonb")
    .addColumn("error", "text")
    .addColumn("refunded_amount", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("impersonator_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("paid_at", "timestamptz")
    .execute();
  await db.schema.createIndex("payments_user_idx").on("payments").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("payments_form_idx").on("payments").column("order_form_id").execute();
  await sql`create unique index payments_provider_ref_key on payments (provider, provider_ref) where provider_ref is not null`.execute(db);

  await db.schema
    .createTable("payment_events")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("payment_id", "uuid", (c) => c.references("payments.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    // create, return, notification, refund, record, writeoff, rejected
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("event_id", "text")
    .addColumn("verified", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("outcome", "text")
    .addColumn("data", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index payment_events_event_key on payment_events (provider, event_id) where event_id is not null`.execute(db);
  await db.schema.createIndex("payment_events_payment_idx").on("payment_events").column("payment_id").execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    // processing (the first request still runs), done (status and response kept and replayed)
    .addColumn("state", "text", (c) => c.notNull().defaultTo("processing"))
    .addColumn("status", "integer")
    .addColumn("response", "jsonb")
    .addColumn("locked_until", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("idempotency_keys_pkey", ["user_id", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_created_idx").on("idempotency_keys").column("created_at").execute();

  await db.schema
    .createTable("vouchers")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("description", "text")
    // A fixed amount in a currency (minor units), or a percentage of the order's total.
    .addColumn("currency_iso", "char(3)")
    .addColumn("amount", "bigint")
    .addColumn("percent", "integer", (c) => c.check(sql`percent between 1 and 100`))
    .addColumn("max_uses", "integer")
    .addColumn("times_used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("valid_until", "timestamptz")
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "vouchers_value",
      sql`(amount is not null and currency_iso is not null and percent is null) or (percent is not null and amount is null)`,
    )
    .execute();
  await sql`create unique index vouchers_code_key on vouchers (upper(code))`.execute(db);
  await db.schema.alterTable("order_forms").addColumn("voucher_code", "text").execute();

  await db.schema
    .alterTable("invoices")
    .addColumn("pending_writeoff", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("written_off_at", "timestamptz")
    // The language and localisation the invoice is issued in (its PDF), and the buyer's details at issue.
    .addColumn("lang", "text")
    .addColumn("localization", "text")
    .addColumn("purchase_order", "text")
    .addColumn("fapesp_process_number", "text")
    .addColumn("grant_number", "text")
    .addColumn("billing", "jsonb")
    .execute();

  await db.schema
    .alterTable("invoice_payments")
    .addColumn("payment_id", "uuid", (c) => c.references("payments.id").onDelete("set null"))
    // payment (reduces the balance), refund (adds it back), writeoff (closes the rest)
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("payment")
        .check(sql`kind in ('payment', 'refund', 'writeoff')`),
    )
    // The payment's amount in its own currency when it differs from the invoice's (pay many in USD).
    .addColumn("paid_amount", "bigint")
    .addColumn("paid_currency_iso", "char(3)")
    .addColumn("exchange_rate", sql`numeric(18,8)`)
    .execute();

  await db.schema
    .alterTable("users")
    .addColumn("hide_invoices", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("voucher_available", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();

  // Brazil: international methods beside the local ones (the Brazil choice picks between them); China: the
  // local entity's two methods (27, 28) for accounts migrated to it.
  await sql`update localizations set payment_methods = '[3, 6, 23, 22, 20, 9, 1, 4, 26]'::jsonb where identity = 'BR'`.execute(db);
  await sql`update localizations set payment_methods = '[3, 19, 25, 21, 9, 27, 28, 1, 4, 26]'::jsonb where identity = 'CN'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("hide_invoices").dropColumn("voucher_available").execute();
  await db.schema
    .alterTable("invoice_payments")
    .dropColumn("payment_id")
    .dropColumn("kind")
    .dropColumn("paid_amount")
    .dropColumn("paid_currency_iso")
    .dropColumn("exchange_rate")
    .execute();
  for (const c of [
    "pending_writeoff",
    "written_off_at",
    "lang",
    "localization",
    "purchase_order",
    "fapesp_process_number",
    "grant_number",
    "billing",
  ])
    await db.schema.alterTable("invoices").dropColumn(c).execute();
  await db.schema.alterTable("order_forms").dropColumn("voucher_code").execute();
  for (const t of ["vouchers", "idempotency_keys", "payment_events", "payments"]) await db.schema.dropTable(t).execute();
  await sql`update localizations set payment_methods = '[23, 22, 20, 9, 1, 4, 26]'::jsonb where identity = 'BR'`.execute(db);
  await sql`update localizations set payment_methods = '[3, 19, 25, 21, 9, 1, 4, 26]'::jsonb where identity = 'CN'`.execute(db);
}
