// Staff and retainer invoices (issue 13 §1, ADR 040): the page of one retainer invoice with its payments, the
// list of unpaid ones, and recording the bank transfer that pays one. A transfer is validated like an
// invoice's (#common/money parseMajor, server/invoices/payments.ts validReceivedOn) and recorded once: the bank's
// reference is unique per retainer invoice, so a repeated submit returns the first row and credits nothing.
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import type { CurrencyFormat } from "#common/format";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import type { Actor } from "../orders/life";
import { afterOrderChange } from "../orders/life";
import { parseMajor } from "#common/money";
import { PAYMENT_REFERENCE_MAX, validReceivedOn } from "../billing/invoices/payments";
import { creditRetainer } from "./credit";
import { lockRetainer, validNumber } from "./retainer";

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
    .selectFrom("retainer_invoices as r")
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
    .executeTakeFirst();
  if (!r) return null;
  const payments = await app.db
    .selectFrom("retainer_invoice_payments as p")
    .leftJoin("users as u", "u.id", "p.recorded_by")
    .select([
      "p.id",
      "p.amount",
      "p.payment_method_id",
      "p.reference",
      sql<string>`p.received_on::text`.as("received_on"),
      "p.payment_id",
      "u.email",
    ])
    .where("p.retainer_invoice_number", "=", number)
    .orderBy("p.id")
    .execute();
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
    researcher: { identity: r.identity, name: `${r.first_name} ${r.last_name}`.trim(), email: r.email },
    payments: payments.map((p) => ({
      id: String(p.id),
      amount: Number(p.amount),
      methodId: p.payment_method_id,
      reference: p.reference,
      receivedOn: p.received_on.slice(0, 10),
      recordedBy: p.email ?? null,
      paymentId: p.payment_id,
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
    .selectFrom("retainer_invoices as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .innerJoin("currencies as c", "c.iso_code", "r.currency_iso")
    .select(["r.number", "r.currency_iso", "c.sign", "c.num_decimals", "r.amount", "r.balance", "r.created_at", "u.email"])
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
 * Records a bank transfer received for retainer invoice `number`. Errors: `not-found`, `invoice-void` (409),
 * `invoice-already-paid` (409), field errors `staffops:errors.invalid-amount`, `amount-exceeds-balance`,
 * `reference-required`, `invalid-date`. A reference recorded before answers that first row (`duplicate`).
 */
export async function recordRetainerTransfer(
  scope: Scope,
  number: string,
  input: TransferInput,
): Promise<Result<{ duplicate: boolean; balance: number; deposited: boolean }>> {
  const reference = input.reference.trim();
  const errors: Record<string, string> = {};
  if (!reference || reference.length > PAYMENT_REFERENCE_MAX) errors.reference = "staffops:errors.reference-required";
  if (!validReceivedOn(input.receivedOn)) errors.receivedOn = "staffops:errors.invalid-date";
  if (Object.keys(errors).length) return invalid(errors);
  const actor: Actor = { userId: scope.userId, impersonatorId: scope.impersonatorId };
  const r = await scope.app.db.transaction().execute(async (trx) => {
    const retainer = await lockRetainer(trx, number);
    if (!retainer) return fail("not-found");
    const existing = await trx
      .selectFrom("retainer_invoice_payments")
      .select("id")
      .where("retainer_invoice_number", "=", retainer.number)
      .where("reference", "=", reference)
      .executeTakeFirst();
    if (existing) return ok({ duplicate: true, balance: Number(retainer.balance), deposited: false, userId: retainer.user_id });
    if (retainer.status === "void") return fail("invoice-void");
    if (retainer.status === "paid" || Number(retainer.balance) <= 0) return fail("invoice-already-paid");
    const decimals = (
      await trx.selectFrom("currencies").select("num_decimals").where("iso_code", "=", retainer.currency_iso).executeTakeFirst()
    )?.num_decimals;
    const amount = parseMajor(input.amount.slice(0, 20), decimals ?? 2);
    if (amount === null) return invalid({ amount: "staffops:errors.invalid-amount" });
    if (amount > Number(retainer.balance)) return invalid({ amount: "staffops:errors.amount-exceeds-balance" }, "amount-exceeds-balance");
    const credited = await creditRetainer(
      trx,
      retainer,
      { amount, paymentMethodId: PAYMENT_METHOD.bankTransfer, reference, receivedOn: input.receivedOn, recordedBy: scope.userId },
      actor,
    );
    return ok({ duplicate: false, balance: credited.balance, deposited: credited.deposited, userId: retainer.user_id });
  });
  if (!r.ok) return r;
  const { userId, ...value } = r.value;
  if (!value.duplicate) await afterOrderChange(scope.app, userId);
  return ok(value);
}
