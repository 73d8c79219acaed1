// Money reaching a retainer invoice (ADR 040): the one place its balance goes down. A provider payment settled
// by server/payments/service.ts and a bank transfer staff record (staff.ts) both come here, in the transaction
// that holds the retainer invoice's row lock: a retainer_invoice_payments row, the balance reduced, and once
// nothing is owed the invoice paid and its money deposited as a prepaid balance (depositPrepayment, once).
import type { DB } from "../db";
import type { Actor } from "../kernel/actor";
import { depositPrepayment } from "../billing";
import { lockRetainer, type RetainerRow } from "./retainer";

export interface RetainerCredit {
  /** Minor units of the retainer invoice's currency; more than its balance is not taken (see `left`). */
  amount: number;
  paymentMethodId: number;
  reference: string;
  /** YYYY-MM-DD. */
  receivedOn: string;
  paymentId?: string | null;
  recordedBy?: number | null;
}

/**
 * Credits a locked retainer invoice. Returns what it took, what was left over (money for nothing owed: staff
 * refund it) and whether the prepayment became spendable now.
 */
export async function creditRetainer(trx: DB, retainer: RetainerRow, c: RetainerCredit, actor: Actor) {
  const owed = Number(retainer.balance);
  const taken = retainer.status === "void" ? 0 : Math.min(owed, c.amount);
  if (taken <= 0) return { taken: 0, left: c.amount, balance: owed, deposited: false };
  await trx
    .insertInto("retainer_invoice_payments")
    .values({
      retainer_invoice_number: retainer.number,
      amount: taken,
      currency_iso: retainer.currency_iso,
      payment_method_id: c.paymentMethodId,
      reference: c.reference,
      received_on: c.receivedOn,
      payment_id: c.paymentId ?? null,
      recorded_by: c.recordedBy ?? null,
    })
    .execute();
  const balance = owed - taken;
  await trx
    .updateTable("retainer_invoices")
    .set(balance === 0 ? { balance, status: "paid", paid_at: new Date() } : { balance })
    .where("number", "=", retainer.number)
    .execute();
  const deposited = balance === 0 ? await depositPrepayment(trx, retainer, actor, c.paymentId ?? null) : false;
  return { taken, left: c.amount - taken, balance, deposited };
}

/**
 * A settled prepay payment's money onto its retainer invoice (called by settle() inside its transaction, the
 * payment's row already locked). Returns the amount that found nothing to pay.
 */
export async function settlePrepayPayment(
  trx: DB,
  payment: { id: string; amount: number; methodId: number; provider: string; providerRef: string | null; retainerInvoiceNumber: string },
  actor: Actor,
): Promise<number> {
  const retainer = await lockRetainer(trx, payment.retainerInvoiceNumber);
  if (!retainer) return payment.amount;
  const r = await creditRetainer(
    trx,
    retainer,
    {
      amount: payment.amount,
      paymentMethodId: payment.methodId,
      reference: `${payment.provider}:${payment.providerRef ?? payment.id}`,
      receivedOn: new Date().toISOString().slice(0, 10),
      paymentId: payment.id,
    },
    actor,
  );
  return r.left;
}
