import { sql, type Kysely } from "kysely";

// One invoice model with a kind (issue 21 §1, ADR 058). A prepayment's "retainer invoice" was a table of its own
// (retainer_invoices, with its own ledger retainer_invoice_payments, 0031) settled by a path of its own; it is now
// an `invoices` row of kind 'prepayment' (no order: order_id is set exactly for kind 'order') whose money is
// recorded in `invoice_payments` like every invoice's. Billing credits both kinds the same way.
//
// - Every retainer invoice moves with the SAME number (PUS100001, PCN100002): numbers a researcher has seen (on
//   a PDF, a fapiao, a bank transfer's reference) never change. Order invoices are "INV" + digits, prepayments
//   "P" + the localisation + digits, so the two never collide. Each kind keeps its own numbering: the order sequence
//   (invoice_number_seq) and the prepayment one, renamed prepayment_invoice_number_seq, which keeps its value.
// - Statuses are the same words in both (unpaid, paid, void: a declined new prepayment is void like a cancelled
//   order's invoice).
// - balance_movements.retainer_invoice_number and fapiaos.retainer_invoice_number keep their names (the prepaid
//   account's number, the prepayment a fapiao is for) and now reference invoices.number.
// - The retainer's own columns come along: method_id, paid_at, expires_at (the prepaid balance's end).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("invoices")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("order"))
    .addColumn("method_id", "integer")
    .addColumn("paid_at", "timestamptz")
    .addColumn("expires_at", "timestamptz")
    .execute();
  await sql`alter table invoices alter column order_id drop not null`.execute(db);
  await sql`alter table invoices add constraint invoices_kind_check check (kind in ('order', 'prepayment'))`.execute(db);
  await sql`alter table invoices add constraint invoices_kind_order check ((kind = 'order') = (order_id is not null))`.execute(db);
  await sql`alter table invoices add constraint invoices_prepayment_amount check (kind <> 'prepayment' or amount > 0)`.execute(db);
  await db.schema.createIndex("invoices_user_kind_idx").on("invoices").columns(["user_id", "kind", "created_at"]).execute();

  await sql`
    insert into invoices (number, kind, order_id, user_id, localization, lang, currency_iso, amount, balance, status,
                          method_id, billing, purchase_order, fapesp_process_number, created_at, paid_at, expires_at,
                          legal_entity, usd_total, exchange_rate)
    select number, 'prepayment', null, user_id, localization, lang, currency_iso, amount, balance, status,
           method_id, billing, purchase_order, fapesp_process_number, created_at, paid_at, expires_at,
           legal_entity, usd_total, exchange_rate
      from retainer_invoices`.execute(db);
  await sql`
    insert into invoice_payments (invoice_number, kind, amount, currency_iso, payment_method_id, reference, received_on,
                                  payment_id, recorded_by, created_at)
    select retainer_invoice_number, 'payment', amount, currency_iso, payment_method_id, reference, received_on,
           payment_id, recorded_by, created_at
      from retainer_invoice_payments
     order by id`.execute(db);

  // The accounts and fapiaos that named a retainer invoice now name the same number in invoices.
  await sql`alter table balance_movements drop constraint if exists balance_movements_retainer_invoice_number_fkey`.execute(db);
  await sql`alter table balance_movements add constraint balance_movements_retainer_invoice_number_fkey
              foreign key (retainer_invoice_number) references invoices (number) on delete cascade`.execute(db);
  await sql`alter table fapiaos drop constraint if exists fapiaos_retainer_invoice_number_fkey`.execute(db);
  await sql`alter table fapiaos add constraint fapiaos_retainer_invoice_number_fkey
              foreign key (retainer_invoice_number) references invoices (number) on delete cascade`.execute(db);

  await db.schema.dropTable("retainer_invoice_payments").execute();
  await db.schema.dropTable("retainer_invoices").execute();
  await sql`alter sequence retainer_invoice_number_seq rename to prepayment_invoice_number_seq`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter sequence prepayment_invoice_number_seq rename to retainer_invoice_number_seq`.execute(db);
  await db.schema
    .createTable("retainer_invoices")
    .addColumn("number", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("localization", "text", (c) => c.notNull())
    .addColumn("lang", "text")
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount > 0`))
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
    .addColumn("expires_at", "timestamptz")
    .addColumn("legal_entity", "jsonb")
    .addColumn("usd_total", "bigint")
    .addColumn("exchange_rate", sql`numeric(18,8)`)
    .execute();
  await db.schema.createIndex("retainer_invoices_user_idx").on("retainer_invoices").columns(["user_id", "created_at"]).execute();
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
  await sql`
    insert into retainer_invoices (number, user_id, localization, lang, currency_iso, amount, balance, status, method_id,
                                   billing, purchase_order, fapesp_process_number, created_at, paid_at, expires_at,
                                   legal_entity, usd_total, exchange_rate)
    select number, user_id, coalesce(localization, 'US'), lang, currency_iso, amount, balance, status, method_id,
           billing, purchase_order, fapesp_process_number, created_at, paid_at, expires_at,
           legal_entity, usd_total, exchange_rate
      from invoices where kind = 'prepayment'`.execute(db);
  await sql`
    insert into retainer_invoice_payments (retainer_invoice_number, amount, currency_iso, payment_method_id, reference,
                                           received_on, payment_id, recorded_by, created_at)
    select p.invoice_number, p.amount, p.currency_iso, p.payment_method_id, p.reference, p.received_on, p.payment_id,
           p.recorded_by, p.created_at
      from invoice_payments p join invoices i on i.number = p.invoice_number
     where i.kind = 'prepayment' and p.kind = 'payment'
     order by p.id`.execute(db);
  for (const table of ["balance_movements", "fapiaos"]) {
    const t = sql.table(table);
    const fk = sql.raw(`${table}_retainer_invoice_number_fkey`);
    await sql`alter table ${t} drop constraint if exists ${fk}`.execute(db);
    await sql`alter table ${t} add constraint ${fk} foreign key (retainer_invoice_number) references retainer_invoices (number) on delete cascade`.execute(
      db,
    );
  }
  await sql`delete from invoice_payments p using invoices i where i.number = p.invoice_number and i.kind = 'prepayment'`.execute(db);
  await sql`delete from invoices where kind = 'prepayment'`.execute(db);
  await db.schema.dropIndex("invoices_user_kind_idx").execute();
  for (const c of ["invoices_prepayment_amount", "invoices_kind_order", "invoices_kind_check"])
    await sql`alter table invoices drop constraint ${sql.raw(c)}`.execute(db);
  await sql`alter table invoices alter column order_id set not null`.execute(db);
  await db.schema
    .alterTable("invoices")
    .dropColumn("kind")
    .dropColumn("method_id")
    .dropColumn("paid_at")
    .dropColumn("expires_at")
    .execute();
}
