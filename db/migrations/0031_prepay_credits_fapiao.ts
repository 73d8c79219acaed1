import { sql, type Kysely } from "kysely";

// Prepayments, credits and fapiao (issue 13, ADR 039).
// - A prepayment is a retainer invoice: issued for the amount the researcher chose, paid like any invoice
//   (its own payment ledger, retainer_invoice_payments), and once paid in full its money becomes a balance.
// - Credits are balances staff grant (courtesy), or that a refund or a referral leaves; each expires.
// - Every movement of a prepayment's or a credit's balance is a balance_movements row (deposit, spend, expire,
//   reversal); a balance is the sum of its rows, never a stored number, and spending locks the account's row
//   so a balance cannot go below 0 however many spends run at once.
// - Fapiaos are the Chinese tax invoices researchers request for an invoice or a prepayment; staff issue them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence retainer_invoice_number_seq start 100001`.execute(db);
  await sql`create sequence credit_reference_seq start 100001`.execute(db);

  await db.schema
    .createTable("retainer_invoices")
    // "P" + the issuing localisation (US, CN, BR) + digits: PCN100001. A US number cannot carry a fapiao.
    .addColumn("number", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("localization", "text", (c) => c.notNull())
    .addColumn("lang", "text")
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount > 0`))
    // What is still to pay on the retainer invoice itself (like invoices.balance).
    .addColumn("balance", "bigint", (c) => c.notNull().check(sql`balance >= 0`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("unpaid")
        .check(sql`status in ('unpaid', 'paid', 'void')`),
    )
    .addColumn("method_id", "integer")
    .addColumn("billing", "jsonb")
    .addColumn("purchase_order", "text")
    .addColumn("fapesp_process_number", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("paid_at", "timestamptz")
    // The prepaid balance may be spent until then (null: no end).
    .addColumn("expires_at", "timestamptz")
    .execute();
  await db.schema.createIndex("retainer_invoices_user_idx").on("retainer_invoices").columns(["user_id", "created_at"]).execute();

  // Money reaching a retainer invoice (a provider payment, a transfer staff record), like invoice_payments.
  await db.schema
    .createTable("retainer_invoice_payments")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("retainer_invoice_number", "text", (c) => c.notNull().references("retainer_invoices.number").onDelete("cascade"))
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("payment_method_id", "integer", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("received_on", "date", (c) => c.notNull())
    .addColumn("payment_id", "uuid", (c) => c.references("payments.id").onDelete("set null"))
    .addColumn("recorded_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("retainer_invoice_payments_reference_key", ["retainer_invoice_number", "reference"])
    .execute();

  await db.schema
    .createTable("credits")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // "CR100001"
    .addColumn("reference_number", "text", (c) => c.notNull().unique())
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount > 0`))
    // courtesy (staff), refund, referral, overpayment
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("note", "text")
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("granted_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("credits_user_idx").on("credits").columns(["user_id", "expires_at"]).execute();

  await db.schema
    .createTable("balance_movements")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("retainer_invoice_number", "text", (c) => c.references("retainer_invoices.number").onDelete("cascade"))
    .addColumn("credit_id", "integer", (c) => c.references("credits.id").onDelete("cascade"))
    // Signed minor units of the account's currency: deposits positive, spends and expiry negative.
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('deposit', 'spend', 'expire', 'reversal')`))
    // A spend: the invoice it paid, the amount it put there (the invoice's currency) and the rate used.
    .addColumn("invoice_number", "text", (c) => c.references("invoices.number").onDelete("set null"))
    .addColumn("invoice_amount", "bigint")
    .addColumn("exchange_rate", sql`numeric(18,8)`)
    .addColumn("payment_id", "uuid", (c) => c.references("payments.id").onDelete("set null"))
    .addColumn("note", "text")
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("balance_movements_one_account", sql`(retainer_invoice_number is null) <> (credit_id is null)`)
    .execute();
  await db.schema.createIndex("balance_movements_user_idx").on("balance_movements").column("user_id").execute();
  await db.schema.createIndex("balance_movements_retainer_idx").on("balance_movements").column("retainer_invoice_number").execute();
  await db.schema.createIndex("balance_movements_credit_idx").on("balance_movements").column("credit_id").execute();

  await db.schema
    .createTable("fapiaos")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("invoice_number", "text", (c) => c.references("invoices.number").onDelete("cascade"))
    .addColumn("retainer_invoice_number", "text", (c) => c.references("retainer_invoices.number").onDelete("cascade"))
    // order (asked for in the payment form) or stored (the fapiao pages, POST /api/fapiao)
    .addColumn("origin", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('general', 'special')`))
    .addColumn("service_type", "text")
    .addColumn("delivery_timeline", "text")
    // The buyer: organisation name (the fapiao's title) and taxpayer number.
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("taxpayer_number", "text")
    .addColumn("special_instructions", "text")
    .addColumn("contact_email", "text")
    .addColumn("contact_phone", "text")
    .addColumn("shipping_address", "text")
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("requested")
        .check(sql`status in ('requested', 'issued', 'cancelled')`),
    )
    .addColumn("fapiao_number", "text")
    .addColumn("file_path", "text")
    .addColumn("issued_at", "timestamptz")
    .addColumn("issued_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("cancelled_at", "timestamptz")
    .addColumn("cancelled_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("fapiaos_one_document", sql`(invoice_number is null) <> (retainer_invoice_number is null)`)
    .execute();
  // One live fapiao per invoice or prepayment; a cancelled one may be asked for again.
  await sql`create unique index fapiaos_invoice_key on fapiaos (invoice_number) where status <> 'cancelled' and invoice_number is not null`.execute(
    db,
  );
  await sql`create unique index fapiaos_retainer_key on fapiaos (retainer_invoice_number) where status <> 'cancelled' and retainer_invoice_number is not null`.execute(
    db,
  );
  await db.schema.createIndex("fapiaos_user_idx").on("fapiaos").columns(["user_id", "created_at"]).execute();
  await sql`create index fapiaos_title_idx on fapiaos (lower(title))`.execute(db);

  // A user whose currency was never chosen (older accounts, accounts staff made) picks one before paying.
  await db.schema
    .alterTable("users")
    .addColumn("currency_chosen", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();

  await sql`insert into feature_flags (name, enabled, description)
            values ('fapiao_enabled', true, 'Fapiao (Chinese tax invoices) can be requested.')
            on conflict (name) do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from feature_flags where name = 'fapiao_enabled'`.execute(db);
  await db.schema.alterTable("users").dropColumn("currency_chosen").execute();
  for (const t of ["fapiaos", "balance_movements", "credits", "retainer_invoice_payments", "retainer_invoices"])
    await db.schema.dropTable(t).execute();
  await sql`drop sequence credit_reference_seq`.execute(db);
  await sql`drop sequence retainer_invoice_number_seq`.execute(db);
}
