// The staff payments console (issue 12 §8): find any payment (by the researcher's e-mail, order number, invoice
// number, status, method), read it with the provider events it received, refund it; read an invoice with its
// ledger and write it off. Staff only (every function checks the acting session itself, besides the routes'
// requireStaff) and every reading and every write leaves an audit-log row (DESIGN §5). The money rules live
// in their areas: refunds in server/payments/refund.ts, write-offs in server/billing/invoices/writeoff.ts.
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import {
  PAYMENT_STATUSES,
  STAFF_PAYMENT_PAGE_SIZE,
  type RefundForm,
  type StaffPaymentSearch,
  type WriteoffForm,
} from "#common/staff/payments";
import type { Scope } from "../scope";
import { invoiceLedger, writeOffInvoice, type WriteoffResult } from "../billing";
import { audit } from "../kernel/audit";
import { overpaymentsOf } from "../billing";
import { staffActor } from "./orders";
import { convertMinor, parseMajor, USD } from "#common/money";
import { personName } from "#common/names";
import type { SiteLang } from "#common/i18n";

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

type Currency = { isoCode: string; sign: string; numDecimals: number };
const currencyOf = (iso: string, sign: string | null, numDecimals: number | null): Currency => ({
  isoCode: iso.trim(),
  sign: sign ?? iso.trim(),
  numDecimals: numDecimals ?? 2,
});

export interface StaffPaymentRow {
  id: string;
  createdAt: string;
  status: string;
  methodId: number;
  provider: string;
  sandbox: boolean;
  amount: number;
  refundedAmount: number;
  currency: Currency;
  orderNumber: string | null;
  invoiceNumbers: string[];
  researcher: { email: string; name: string };
}

function paymentsQuery(scope: Scope) {
  return scope.app.db
    .selectFrom("payments as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .leftJoin("orders as o", "o.order_form_id", "p.order_form_id")
    .leftJoin("currencies as c", "c.iso_code", "p.currency_iso");
}

const PAYMENT_COLUMNS = [
  "p.id",
  "p.created_at",
  "p.status",
  "p.method_id",
  "p.provider",
  "p.sandbox",
  "p.amount",
  "p.refunded_amount",
  "p.currency_iso",
  "p.invoice_numbers",
  "c.sign",
  "c.num_decimals",
  "o.external_id",
  "u.email",
  "u.first_name",
  "u.last_name",
] as const;

type PaymentSelect = {
  id: string;
  created_at: Date;
  status: string;
  method_id: number;
  provider: string;
  sandbox: boolean;
  amount: string;
  refunded_amount: string;
  currency_iso: string;
  invoice_numbers: string[];
  sign: string | null;
  num_decimals: number | null;
  external_id: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
};

function toRow(r: PaymentSelect, lang: SiteLang): StaffPaymentRow {
  return {
    id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    status: r.status,
    methodId: r.method_id,
    provider: r.provider,
    sandbox: r.sandbox,
    amount: Number(r.amount),
    refundedAmount: Number(r.refunded_amount),
    currency: currencyOf(r.currency_iso, r.sign, r.num_decimals),
    orderNumber: r.external_id,
    invoiceNumbers: Array.isArray(r.invoice_numbers) ? r.invoice_numbers : [],
    researcher: { email: r.email, name: personName(r.first_name, r.last_name, lang) },
  };
}

/**
 * Payments of every researcher, newest first, 30 a page. Filters: e-mail and order number (fragments), invoice
 * number (exact: one the payment paid, or one of its order), status, method id. Errors: `not-allowed`; field errors.
 */
export async function searchStaffPayments(
  scope: Scope,
  q: StaffPaymentSearch,
): Promise<Result<{ payments: StaffPaymentRow[]; pagination: { page: number; pageSize: number; total: number } }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const errors: Record<string, string> = {};
  const page = q.page ? Number(q.page) : 1;
  if (!Number.isInteger(page) || page < 1) errors.page = "staffpay:errors.invalid-page";
  if (q.status && !(PAYMENT_STATUSES as readonly string[]).includes(q.status)) errors.status = "staffpay:errors.invalid-status";
  const method = q.method ? Number(q.method) : null;
  if (q.method && !Number.isInteger(method)) errors.method = "staffpay:errors.invalid-method";
  if (Object.keys(errors).length) return invalid(errors);
  let filtered = paymentsQuery(scope);
  if (q.email?.trim()) filtered = filtered.where(sql`lower(u.email)`, "like", `%${escapeLike(q.email.trim().toLowerCase())}%`);
  if (q.order?.trim()) filtered = filtered.where("o.external_id", "ilike", `%${escapeLike(q.order.trim())}%`);
  const invoice = q.invoice?.trim();
  if (invoice)
    filtered = filtered.where((eb) =>
      eb.or([
        eb(sql`p.invoice_numbers`, "@>", sql`${JSON.stringify([invoice])}::jsonb`),
        eb.exists(eb.selectFrom("invoices as i").select("i.number").whereRef("i.order_id", "=", "o.id").where("i.number", "=", invoice)),
      ]),
    );
  if (q.status) filtered = filtered.where("p.status", "=", q.status as (typeof PAYMENT_STATUSES)[number]);
  if (method !== null) filtered = filtered.where("p.method_id", "=", method);
  const [rows, count] = await Promise.all([
    filtered
      .select([...PAYMENT_COLUMNS])
      .orderBy("p.created_at", "desc")
      .orderBy("p.id", "desc")
      .limit(STAFF_PAYMENT_PAGE_SIZE)
      .offset((page - 1) * STAFF_PAYMENT_PAGE_SIZE)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  await audit(scope.app, actor.userId, "staff.payments.search", null, { ...q, ip: scope.ip });
  return ok({
    payments: rows.map((r) => toRow(r as PaymentSelect, scope.lang)),
    pagination: { page, pageSize: STAFF_PAYMENT_PAGE_SIZE, total: count.n },
  });
}

/** A provider event's data in one short line: its top-level fields, nested ones elided, long values cut. */
export function summarizeEventData(data: unknown, max = 160): string {
  if (!data || typeof data !== "object") return "";
  const parts = Object.entries(data as Record<string, unknown>).map(([k, v]) => {
    const value = v !== null && typeof v === "object" ? "{…}" : String(v);
    return `${k}=${value.length > 40 ? `${value.slice(0, 39)}…` : value}`;
  });
  const line = parts.join(", ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface StaffPaymentPage {
  payment: StaffPaymentRow & {
    providerRef: string | null;
    error: string | null;
    paidAt: string | null;
    purpose: string;
    /** Every order the payment paid (its own, or those of the invoices it paid). */
    orderNumbers: string[];
    /** A payment in another currency than USD: its amount in USD cents at the rate it was priced at, and that rate. */
    usdBase: { usdTotal: number; exchangeRate: string } | null;
  };
  events: {
    id: string;
    kind: string;
    outcome: string | null;
    verified: boolean;
    createdAt: string;
    summary: string;
    actor: string | null;
  }[];
  /** What a refund may still return (minor units): paid and not yet refunded; 0 unless the payment succeeded. */
  refundable: number;
  /** The provider cannot give money back (a boleto): staff return it by bank transfer. */
  refundByTransfer: boolean;
  /** Money captured beyond what was due and where it went (ADR 051): the researcher's overpayment credits. */
  overpayments: { creditNumber: string; amount: number; unspent: number; currency: Currency }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function paymentById(scope: Scope, id: string) {
  if (!UUID.test(id)) return null;
  return paymentsQuery(scope)
    .select([
      ...PAYMENT_COLUMNS,
      "p.provider_ref",
      "p.error",
      "p.paid_at",
      "p.purpose",
      sql<string | null>`p.exchange_rate::text`.as("exchange_rate"),
    ])
    .where("p.id", "=", id)
    .executeTakeFirst();
}

/** The console's payment page (the reading is audited). Null when there is no such payment or the actor is not staff. */
export async function staffPaymentPage(scope: Scope, id: string): Promise<StaffPaymentPage | null> {
  const actor = staffActor(scope);
  if (!actor) return null;
  const row = await paymentById(scope, id);
  if (!row) return null;
  const events = await scope.app.db
    .selectFrom("payment_events as e")
    .leftJoin("users as u", "u.id", "e.actor_user_id")
    .select(["e.id", "e.kind", "e.outcome", "e.verified", "e.created_at", "e.data", "u.email"])
    .where("e.payment_id", "=", row.id)
    .orderBy("e.id")
    .execute();
  await audit(scope.app, actor.userId, "staff.payment.view", { type: "payment", id: row.id }, { ip: scope.ip });
  const payment = toRow(row as PaymentSelect, scope.lang);
  // A boleto goes back by bank transfer, not through the bank's collection (ADR 051): no refund form for it.
  const refundByTransfer = row.provider === "boleto";
  const refundable = row.status === "succeeded" && !refundByTransfer ? Math.max(0, payment.amount - payment.refundedAmount) : 0;
  // The orders the payment paid: the wizard's own order, or the orders of the invoices it paid (pay-many pays several).
  const invoiceOrders = payment.invoiceNumbers.length
    ? await scope.app.db
        .selectFrom("invoices as i")
        .innerJoin("orders as o", "o.id", "i.order_id")
        .select("o.external_id")
        .where("i.number", "in", payment.invoiceNumbers)
        .orderBy("o.external_id")
        .execute()
    : [];
  const orderNumbers = [...new Set([...(payment.orderNumber ? [payment.orderNumber] : []), ...invoiceOrders.map((o) => o.external_id)])];
  const credits = await overpaymentsOf(scope.app.db, row.id);
  const currencies = credits.length
    ? await scope.app.db
        .selectFrom("currencies")
        .select(["iso_code", "sign", "num_decimals"])
        .where(
          "iso_code",
          "in",
          credits.map((c) => c.currencyIso),
        )
        .execute()
    : [];
  const overpayments = credits.map((c) => {
    const cur = currencies.find((x) => x.iso_code.trim() === c.currencyIso);
    return {
      creditNumber: c.creditNumber,
      amount: c.amount,
      unspent: c.unspent,
      currency: currencyOf(c.currencyIso, cur?.sign ?? c.currencyIso, cur?.num_decimals ?? 2),
    };
  });
  const rate = payment.currency.isoCode === "USD" ? null : await rateOfPayment(scope, row, payment.currency.isoCode);
  return {
    payment: {
      ...payment,
      usdBase: rate
        ? { usdTotal: convertMinor(payment.amount, { ...payment.currency, rate }, USD, "half-away"), exchangeRate: rate }
        : null,
      providerRef: row.provider_ref,
      error: row.error,
      paidAt: row.paid_at ? new Date(row.paid_at).toISOString() : null,
      purpose: row.purpose,
      orderNumbers,
    },
    events: events.map((e) => ({
      id: String(e.id),
      kind: e.kind,
      outcome: e.outcome,
      verified: e.verified,
      createdAt: new Date(e.created_at).toISOString(),
      summary: summarizeEventData(e.data),
      actor: e.email,
    })),
    refundable,
    refundByTransfer,
    overpayments,
  };
}

/**
 * The rate (units of `iso` per 1 USD) a payment in another currency was priced at: its own when it stored one, else
 * the rate its invoices (or its order's invoice) were issued at (ADR 052), else the rate in force the day it was made.
 */
async function rateOfPayment(
  scope: Scope,
  row: { id: string; exchange_rate: string | null; invoice_numbers: string[] | null; external_id: string | null; created_at: Date },
  iso: string,
): Promise<string | null> {
  if (row.exchange_rate) return row.exchange_rate;
  const numbers = Array.isArray(row.invoice_numbers) ? row.invoice_numbers : [];
  const invoice = await scope.app.db
    .selectFrom("invoices as i")
    .leftJoin("orders as o", "o.id", "i.order_id")
    .select(sql<string | null>`i.exchange_rate::text`.as("rate"))
    .where("i.currency_iso", "=", iso)
    .where("i.exchange_rate", "is not", null)
    .where((eb) =>
      eb.or([
        ...(numbers.length ? [eb("i.number", "in", numbers)] : []),
        ...(row.external_id ? [eb("o.external_id", "=", row.external_id)] : []),
        eb.val(false),
      ]),
    )
    .orderBy("i.number")
    .executeTakeFirst();
  if (invoice?.rate) return invoice.rate;
  const day = await scope.app.db
    .selectFrom("exchange_rates")
    .select(sql<string>`rate::text`.as("rate"))
    .where("iso_code", "=", iso)
    .where("effective_on", "<=", sql<string>`${new Date(row.created_at).toISOString().slice(0, 10)}::date`)
    .orderBy("effective_on", "desc")
    .executeTakeFirst();
  return day?.rate ?? null;
}

/** How a refund is carried out: server/payments/refund.ts's refundPayment (passed in so this module stays testable). */
export type RefundFn = (
  scope: Scope,
  paymentId: string,
  amount: number,
  reason: string,
  options: { reopen: boolean },
) => Promise<Result<unknown>>;

/**
 * Refunds `form.amount` (major units as typed) of a payment, at most what was paid and not yet refunded, with a
 * reason. Errors: `not-allowed`, `not-found`, `not-refundable` (409); field errors on amount and reason.
 */
export async function staffRefund(scope: Scope, id: string, form: RefundForm, refund: RefundFn): Promise<Result<{ amount: number }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const page = await paymentById(scope, id);
  if (!page) return fail("not-found");
  const payment = toRow(page as PaymentSelect, scope.lang);
  const refundable = page.status === "succeeded" ? payment.amount - payment.refundedAmount : 0;
  if (refundable <= 0) return fail("not-refundable");
  const errors: Record<string, string> = {};
  const amount = parseMajor(form.amount, payment.currency.numDecimals);
  if (amount === null) errors.amount = "staffpay:errors.invalid-amount";
  else if (amount > refundable) errors.amount = "staffpay:errors.amount-exceeds-refundable";
  const reason = form.reason.trim();
  if (!reason) errors.reason = "staffpay:errors.reason-required";
  if (Object.keys(errors).length) return invalid(errors);
  const reopen = form.reopen === "on" || form.reopen === "yes" || form.reopen === "true";
  const r = await refund(scope, id, amount!, reason, { reopen });
  await audit(scope.app, actor.userId, "staff.payment.refund", { type: "payment", id }, { amount, reason, reopen, ok: r.ok, ip: scope.ip });
  return r.ok ? ok({ amount: amount! }) : r;
}

export interface StaffInvoicePage {
  invoice: {
    number: string;
    status: string;
    amount: number;
    balance: number;
    currency: Currency;
    createdAt: string;
    pendingWriteoff: boolean;
    writtenOffAt: string | null;
    orderNumber: string;
    researcher: { email: string; name: string };
  };
  ledger: Awaited<ReturnType<typeof invoiceLedger>>;
}

/** The console's invoice page (the reading is audited). Null when there is no such invoice or the actor is not staff. */
export async function staffInvoicePage(scope: Scope, number: string): Promise<StaffInvoicePage | null> {
  const actor = staffActor(scope);
  if (!actor) return null;
  if (!number || number.length > 40) return null;
  const row = await scope.app.db
    .selectFrom("invoices as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .innerJoin("users as u", "u.id", "i.user_id")
    .leftJoin("currencies as c", "c.iso_code", "i.currency_iso")
    .select([
      "i.number",
      "i.status",
      "i.amount",
      "i.balance",
      "i.currency_iso",
      "i.created_at",
      "i.pending_writeoff",
      "i.written_off_at",
      "o.external_id",
      "c.sign",
      "c.num_decimals",
      "u.email",
      "u.first_name",
      "u.last_name",
    ])
    .where("i.number", "=", number)
    .where("i.kind", "=", "order")
    .executeTakeFirst();
  if (!row) return null;
  const ledger = await invoiceLedger(scope.app, row.number);
  await audit(scope.app, actor.userId, "staff.invoice.view", { type: "invoice", id: row.number }, { ip: scope.ip });
  return {
    invoice: {
      number: row.number,
      status: row.status,
      amount: Number(row.amount),
      balance: Number(row.balance),
      currency: currencyOf(row.currency_iso, row.sign, row.num_decimals),
      createdAt: new Date(row.created_at).toISOString(),
      pendingWriteoff: row.pending_writeoff,
      writtenOffAt: row.written_off_at ? new Date(row.written_off_at).toISOString() : null,
      orderNumber: row.external_id,
      researcher: { email: row.email, name: personName(row.first_name, row.last_name, scope.lang) },
    },
    ledger,
  };
}

/** Marks an invoice for write-off or writes the rest off now (idempotent), audited. Errors: `not-allowed` and writeOffInvoice's. */
export async function staffWriteOff(scope: Scope, number: string, form: WriteoffForm): Promise<Result<WriteoffResult>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const note = form.note.trim() || null;
  const r = await writeOffInvoice(scope.app, actor, number, form.intent === "writeoff" ? "now" : "pending", note);
  if (!r.ok) return r;
  await audit(
    scope.app,
    actor.userId,
    form.intent === "writeoff" ? "staff.invoice.writeoff" : "staff.invoice.pending-writeoff",
    { type: "invoice", id: number },
    { amount: r.value.amount, already: r.value.already, note, ip: scope.ip },
  );
  return r;
}
