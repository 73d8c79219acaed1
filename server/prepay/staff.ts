// Staff and retainer invoices (issue 13 §1, ADR 040, ADR 058): the page of one retainer invoice with its payments,
// the list of unpaid ones, and recording the bank transfer that pays one. A retainer invoice is billing's invoice of
// kind `prepayment`: its ledger is billing's invoiceLedger and a transfer is billing's recordBankPayment (validated
// and recorded once, the bank's reference unique per invoice), as for an order's invoice.
import { personName } from "#common/names";
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import type { CurrencyFormat } from "#common/format";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import type { Actor } from "../kernel/actor";
import { invoiceLedger, recordBankPayment } from "../billing";
import { validNumber } from "./retainer";

export interface StaffRetainer {
  number: string;
  status: string;
  currency: CurrencyFormat;
  amount: number;
  balance: number;
  createdAt: string;
  paidAt: string | null;
  methodId: number | null;
  purchaseOrder: string | null;
  researcher: { identity: string; name: string; email: string };
  payments: {
    id: string;
    amount: number;
    methodId: number;
    reference: string;
    receivedOn: string;
    recordedBy: string | null;
    paymentId: string | null;
  }[];
  /** The balance the paid retainer left to spend (sum of its ledger rows). */
  available: number;
}

/** One retainer invoice for the staff console, or null. */
export async function staffRetainerPage(app: AppContext, number: string): Promise<StaffRetainer | null> {
  if (!validNumber(number)) return null;
  const r = await app.db
    .selectFrom("invoices as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .innerJoin("currencies as c", "c.iso_code", "r.currency_iso")
    .select([
      "r.number",
      "r.status",
      "r.currency_iso",
      "c.sign",
      "c.num_decimals",
      "r.amount",
      "r.balance",
      "r.created_at",
      "r.paid_at",
      "r.method_id",
      "r.purchase_order",
      "u.identity",
      "u.first_name",
      "u.last_name",
      "u.email",
      (eb) =>
        eb
          .selectFrom("balance_movements as m")
          .select(sql<string>`coalesce(sum(m.amount), 0)::text`.as("s"))
          .whereRef("m.retainer_invoice_number", "=", "r.number")
          .as("available"),
    ])
    .where("r.number", "=", number)
    .where("r.kind", "=", "prepayment")
    .executeTakeFirst();
  if (!r) return null;
  // The invoice's ledger, as billing keeps it for every kind (ADR 058).
  const payments = await invoiceLedger(app, number);
  return {
    number: r.number,
    status: r.status,
    currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    amount: Number(r.amount),
    balance: Number(r.balance),
    createdAt: new Date(r.created_at).toISOString(),
    paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
    methodId: r.method_id,
    purchaseOrder: r.purchase_order,
    researcher: { identity: r.identity, name: personName(r.first_name, r.last_name), email: r.email },
    payments: payments.map(({ id, amount, methodId, reference, receivedOn, recordedBy, paymentId }) => ({
      id,
      amount,
      methodId,
      reference,
      receivedOn,
      recordedBy,
      paymentId,
    })),
    available: Number(r.available ?? 0),
  };
}

export interface UnpaidRetainer {
  number: string;
  currency: CurrencyFormat;
  amount: number;
  balance: number;
  createdAt: string;
  email: string;
}

/** Unpaid retainer invoices, newest first (what staff wait for transfers on); `email` narrows to one researcher. */
export async function unpaidRetainers(app: AppContext, email?: string | null, limit = 50): Promise<UnpaidRetainer[]> {
  let q = app.db
    .selectFrom("invoices as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .innerJoin("currencies as c", "c.iso_code", "r.currency_iso")
    .select(["r.number", "r.currency_iso", "c.sign", "c.num_decimals", "r.amount", "r.balance", "r.created_at", "u.email"])
    .where("r.kind", "=", "prepayment")
    .where("r.status", "=", "unpaid")
    .orderBy("r.created_at", "desc")
    .orderBy("r.number", "desc")
    .limit(limit);
  const e = email?.trim().toLowerCase();
  if (e) q = q.where(sql<string>`lower(u.email)`, "like", `%${e.replace(/[%_\\]/g, "\\$&")}%`);
  const rows = await q.execute();
  return rows.map((r) => ({
    number: r.number,
    currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    amount: Number(r.amount),
    balance: Number(r.balance),
    createdAt: new Date(r.created_at).toISOString(),
    email: r.email,
  }));
}

export interface TransferInput {
  /** Major units as staff type it ("500", "1250.50"). */
  amount: string;
  reference: string;
  /** YYYY-MM-DD. */
  receivedOn: string;
}

/**
 * Records a bank transfer received for retainer invoice `number`: billing's recordBankPayment for an invoice of
 * kind `prepayment` (ADR 058; the deposit follows through prepay's invoiceSettled handler). Errors: `not-found`,
 * `invoice-void` (409), `invoice-already-paid` (409), field errors `staffops:errors.invalid-amount`,
 * `amount-exceeds-balance`, `reference-required`, `invalid-date`. A reference recorded before answers that first
 * row (`duplicate`).
 */
export async function recordRetainerTransfer(
  scope: Scope,
  number: string,
  input: TransferInput,
): Promise<Result<{ duplicate: boolean; balance: number; deposited: boolean }>> {
  if (!validNumber(number)) return fail("not-found");
  const actor: Actor = { userId: scope.userId, impersonatorId: scope.impersonatorId };
  const r = await recordBankPayment(scope.app, actor, number, input, "prepayment");
  if (!r.ok) return r;
  // Settled in full now: its balance was deposited in that transaction.
  return ok({ duplicate: r.value.duplicate, balance: r.value.balance, deposited: !r.value.duplicate && r.value.balance === 0 });
}
