// Bank-transfer payments recorded by staff against an invoice of any kind (issue 11 §2, spec 3, ADR 058): a ledger
// row per transfer (invoice_payments), the invoice's balance reduced by it, and the order paid (or the prepayment
// deposited) once nothing is owed. One transfer
// is recorded once: the bank's reference is unique per invoice, so a repeated submit (a double click, a retried
// request, two staff members with the same statement) returns the first row and credits nothing twice.
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import type { AppContext } from "../../context";
import type { DB } from "../../db";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { Actor } from "../../kernel/actor";
import { billingChanged, invoiceSettled } from "./events";
import type { InvoiceKind } from "../../../db/types-orders";
import { parseMajor } from "#common/money";

export interface BankPaymentInput {
  /** In major units as staff type it ("1250.50"); converted with the currency's decimals here. */
  amount: string;
  /** The bank's reference of the transfer. */
  reference: string;
  /** YYYY-MM-DD. */
  receivedOn: string;
}

export interface RecordedPayment {
  paymentId: string;
  invoiceNumber: string;
  /** Minor units. */
  amount: number;
  currencyIso: string;
  reference: string;
  receivedOn: string;
  /** The invoice's balance after the payment (minor units). */
  balance: number;
  invoiceStatus: string;
  orderPaid: boolean;
  /** The reference was recorded before: this is that first payment, nothing was credited now. */
  duplicate: boolean;
}

export const PAYMENT_REFERENCE_MAX = 100;

/** A real calendar date YYYY-MM-DD, not after tomorrow (UTC: the bank's statement may be a time zone ahead). */
export function validReceivedOn(input: string, now = new Date()): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input)) return false;
  const d = new Date(`${input}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== input) return false;
  return d.getTime() <= now.getTime() + 24 * 3600 * 1000 && d.getUTCFullYear() >= 2000;
}

const dateOf = (v: string) => v.slice(0, 10);

/**
 * Records a bank transfer against invoice `invoiceNumber`. Errors: `not-found`, `invoice-void` (409), field
 * errors on `amount` (`invalid-amount`, `amount-exceeds-balance`), `reference` (`reference-required`) and
 * `receivedOn` (`invalid-date`), as `staffops:errors.*` keys.
 */
export async function recordBankPayment(
  app: AppContext,
  actor: Actor,
  invoiceNumber: string,
  input: BankPaymentInput,
  /** The kind the caller's page is for (the staff order page: `order`; a prepayment's page: `prepayment`). */
  kind: InvoiceKind = "order",
): Promise<Result<RecordedPayment>> {
  const reference = input.reference.trim();
  const errors: Record<string, string> = {};
  if (!reference || reference.length > PAYMENT_REFERENCE_MAX) errors.reference = "staffops:errors.reference-required";
  if (!validReceivedOn(input.receivedOn)) errors.receivedOn = "staffops:errors.invalid-date";
  if (Object.keys(errors).length) return invalid(errors);
  const r = await app.db.transaction().execute(async (trx): Promise<Result<RecordedPayment & { userId: number }>> => {
    // The invoice row is locked: payments of one invoice queue here and each sees the balance the one before left.
    const invoice = await lockInvoice(trx, invoiceNumber);
    if (!invoice || invoice.kind !== kind) return fail("not-found");
    const currencyIso = invoice.currency_iso.trim();
    const existing = await trx
      .selectFrom("invoice_payments")
      .select(["id", "amount", sql<string>`received_on::text`.as("received_on")])
      .where("invoice_number", "=", invoiceNumber)
      .where("reference", "=", reference)
      .executeTakeFirst();
    if (existing) {
      return ok({
        paymentId: String(existing.id),
        invoiceNumber,
        amount: Number(existing.amount),
        currencyIso,
        reference,
        receivedOn: dateOf(existing.received_on),
        balance: Number(invoice.balance),
        invoiceStatus: invoice.status,
        // A prepayment bills no order: "paid" is its own state.
        orderPaid: invoice.order_paid ?? Number(invoice.balance) <= 0,
        duplicate: true,
        userId: invoice.user_id,
      });
    }
    if (invoice.status === "void") return fail("invoice-void");
    // Nothing left to pay on a prepayment: refused as such (an order invoice's page offers no form by then).
    if (invoice.kind === "prepayment" && (invoice.status === "paid" || Number(invoice.balance) <= 0)) return fail("invoice-already-paid");
    const amount = parseMajor(input.amount, invoice.num_decimals);
    if (amount === null) return invalid({ amount: "staffops:errors.invalid-amount" });
    const balanceBefore = Number(invoice.balance);
    if (amount > balanceBefore) return invalid({ amount: "staffops:errors.amount-exceeds-balance" }, "amount-exceeds-balance");
    const credited = await creditInvoice(
      trx,
      { ...invoice, currency_iso: currencyIso },
      {
        amount,
        paymentMethodId: PAYMENT_METHOD.bankTransfer,
        reference,
        receivedOn: input.receivedOn,
        recordedBy: actor.userId,
      },
      actor,
    );
    const { row, balance, invoiceStatus } = credited;
    return ok({
      paymentId: String(row.id),
      invoiceNumber,
      amount,
      currencyIso,
      reference,
      receivedOn: input.receivedOn,
      balance,
      invoiceStatus,
      orderPaid: balance === 0,
      duplicate: false,
      userId: invoice.user_id,
    });
  });
  if (!r.ok) return r;
  const { userId, ...payment } = r.value;
  // The researcher's cached view (unpaid invoices, orders) changed.
  if (!payment.duplicate) await billingChanged.emit(app, { userId });
  return ok(payment);
}

/**
 * An invoice row locked for the rest of the transaction (`for update`), with its order's status and its currency's
 * decimals: every change of an invoice's balance starts here, so changes of one invoice queue and each sees the
 * balance the one before left.
 */
export function lockInvoice(trx: DB, invoiceNumber: string) {
  return (
    trx
      .selectFrom("invoices as i")
      .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
      // A prepayment bills no order (ADR 058): its order columns are null.
      .leftJoin("orders as o", "o.id", "i.order_id")
      .select([
        "i.number",
        "i.kind",
        "i.order_id",
        "i.user_id",
        "i.currency_iso",
        "i.amount",
        "i.balance",
        "i.status",
        "i.pending_writeoff",
        "c.num_decimals",
        "o.status as order_status",
        "o.paid as order_paid",
      ])
      .where("i.number", "=", invoiceNumber)
      .forUpdate("i")
      .executeTakeFirst()
  );
}

/** A locked invoice row, as creditInvoice needs it. */
export interface LockedInvoice {
  number: string;
  kind: InvoiceKind;
  order_id: number | null;
  user_id: number;
  currency_iso: string;
  amount: string | number;
  balance: string | number;
  status: string;
  order_status: string | null;
}

export interface CreditInput {
  /** Minor units of the invoice's currency; at most its balance. */
  amount: number;
  paymentMethodId: number;
  reference: string;
  /** YYYY-MM-DD. */
  receivedOn: string;
  recordedBy?: number | null;
  /** The payments row the money came from (a provider payment), and what it charged when in another currency. */
  paymentId?: string | null;
  paidAmount?: number | null;
  paidCurrencyIso?: string | null;
  exchangeRate?: string | null;
}

/**
 * Puts money on an invoice of any kind the caller has locked (`for update`) in `trx`: the ledger row, the balance,
 * the invoice's status (paid, with its time, once nothing is owed), and the `invoiceSettled` event with the kind
 * (ADR 058): orders marks the order paid once nothing is owed and writes its "payment recorded" history row and
 * mail; prepay deposits a settled prepayment's balance; both in this transaction.
 * The one place money reaches an invoice: staff-recorded transfers, provider payments and balance spends.
 */
export async function creditInvoice(trx: DB, invoice: LockedInvoice, input: CreditInput, actor: Actor) {
  const balance = Number(invoice.balance) - input.amount;
  const row = await trx
    .insertInto("invoice_payments")
    .values({
      invoice_number: invoice.number,
      amount: input.amount,
      currency_iso: invoice.currency_iso.trim(),
      payment_method_id: input.paymentMethodId,
      reference: input.reference,
      received_on: input.receivedOn,
      recorded_by: input.recordedBy ?? null,
      payment_id: input.paymentId ?? null,
      paid_amount: input.paidAmount ?? null,
      paid_currency_iso: input.paidCurrencyIso ?? null,
      exchange_rate: input.exchangeRate ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const invoiceStatus = balance <= 0 ? "paid" : invoice.status;
  await trx
    .updateTable("invoices")
    .set(balance <= 0 ? { balance, status: invoiceStatus, paid_at: new Date() } : { balance, status: invoiceStatus })
    .where("number", "=", invoice.number)
    .execute();
  await invoiceSettled.emit(trx, {
    kind: invoice.kind,
    invoiceNumber: invoice.number,
    userId: invoice.user_id,
    orderId: invoice.order_id,
    orderStatus: invoice.order_status,
    invoiceAmount: Number(invoice.amount),
    amount: input.amount,
    currencyIso: invoice.currency_iso.trim(),
    reference: input.reference,
    receivedOn: input.receivedOn,
    balance,
    paymentId: input.paymentId ?? null,
    actor,
  });
  return { row, balance, invoiceStatus, orderPaid: balance <= 0 };
}

/** An invoice's ledger: payments, refunds and write-offs, oldest first. */
export async function invoiceLedger(app: AppContext, invoiceNumber: string) {
  const rows = await app.db
    .selectFrom("invoice_payments as p")
    .leftJoin("users as u", "u.id", "p.recorded_by")
    .select([
      "p.id",
      "p.kind",
      "p.amount",
      "p.currency_iso",
      "p.payment_method_id",
      "p.reference",
      "p.payment_id",
      sql<string>`p.received_on::text`.as("received_on"),
      "p.created_at",
      "u.email as recorded_by",
    ])
    .where("p.invoice_number", "=", invoiceNumber)
    .orderBy("p.id")
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    amount: Number(r.amount),
    currencyIso: r.currency_iso.trim(),
    methodId: r.payment_method_id,
    reference: r.reference,
    paymentId: r.payment_id,
    receivedOn: dateOf(r.received_on),
    recordedBy: r.recorded_by,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** The payments recorded against an invoice, oldest first: its ledger in the shape the staff order page shows. */
export async function invoicePayments(app: AppContext, invoiceNumber: string) {
  return (await invoiceLedger(app, invoiceNumber)).map(({ id, amount, reference, receivedOn, recordedBy, createdAt }) => ({
    id,
    amount,
    reference,
    receivedOn,
    recordedBy,
    createdAt,
  }));
}
