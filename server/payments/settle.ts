// Settling a payment: the one place a provider's money moves into billing (issue 12, ADR 034/051/056/058). Once
// per payment (its row locked; a settled payment is left as it is), the balances held for it spent first, each
// invoice credited its allocation (never beyond its balance) whatever its kind — an order's or a prepayment's, whose
// areas react to billing's `invoiceSettled` —, and whatever found nothing to pay credited to the researcher as an
// overpayment.
import type { AppContext } from "../context";
import { creditInvoice, lockInvoice } from "../billing/invoices/payments";
import { billingChanged } from "../billing/invoices/events";
import { creditOverpayment, type Overpayment } from "../billing";
import { applyReservations } from "./reserve";
import type { Actor } from "../kernel/actor";
import { type PaymentRow, type Row, readPayment, toPayment } from "./read";

/**
 * Moves a payment's money onto its invoices, once: the payment's row is locked, a settled payment is left as
 * it is, the balances held for it are spent first, and each invoice gets its allocation (never more than its
 * balance); money for an invoice paid otherwise meanwhile becomes the researcher's overpayment credit (ADR 051).
 */
export async function settle(app: AppContext, paymentId: string, actor: Actor): Promise<{ payment: PaymentRow; changed: boolean }> {
  const r = await app.db.transaction().execute(async (trx) => {
    const payment = (await readPayment(trx, paymentId, true))!;
    if (payment.status === "succeeded" || payment.status === "refunded") return { payment, changed: false };
    // What arrived for nothing left to pay, per currency (an allocation is in its invoice's currency).
    const surplus = new Map<string, number>();
    const addSurplus = (iso: string, amount: number) => amount > 0 && surplus.set(iso, (surplus.get(iso) ?? 0) + amount);
    const today = new Date().toISOString().slice(0, 10);
    // A prepayment's payment names its invoice; before ADR 058 it carried no allocation (`retainerInvoiceNumber`
    // only): an attempt of then still settling is allocated its whole amount.
    const legacyPrepayment = payment.purpose === "prepay" ? payment.details.retainerInvoiceNumber : undefined;
    const allocations =
      payment.details.allocations ?? (legacyPrepayment ? [{ invoiceNumber: legacyPrepayment, amount: payment.amount }] : []);
    // Balances held for this payment go on first (ADR 051): the provider's money pays what they leave.
    await applyReservations(trx, app, { paymentId: payment.id, userId: payment.userId, actor });
    for (const a of [...allocations].sort((x, y) => (x.invoiceNumber < y.invoiceNumber ? -1 : 1))) {
      const invoice = await lockInvoice(trx, a.invoiceNumber);
      // A void invoice owes nothing (a declined new prepayment, a cancelled order's invoice): money for it is surplus.
      const balance = invoice && invoice.status !== "void" ? Number(invoice.balance) : 0;
      const amount = Math.min(balance, a.amount);
      if (invoice) addSurplus(invoice.currency_iso.trim(), a.amount - amount);
      else addSurplus(payment.currencyIso, a.amount - amount);
      if (!invoice || amount <= 0) continue;
      await creditInvoice(
        trx,
        invoice,
        {
          amount,
          paymentMethodId: payment.methodId,
          reference: `${payment.provider}:${payment.providerRef ?? payment.id}`,
          receivedOn: today,
          paymentId: payment.id,
          paidAmount: payment.currencyIso === invoice.currency_iso.trim() ? null : payment.amount,
          paidCurrencyIso: payment.currencyIso === invoice.currency_iso.trim() ? null : payment.currencyIso,
          exchangeRate: payment.exchangeRate,
        },
        actor,
      );
    }
    if (allocations.length === 0) addSurplus(payment.currencyIso, payment.amount);
    // A capture beyond what is due stays the researcher's, visibly: an overpayment credit (ADR 051).
    const overpayments: Overpayment[] = [];
    for (const [iso, amount] of [...surplus].sort()) {
      const credited = await creditOverpayment(trx, payment, iso, amount, actor);
      if (credited) overpayments.push(credited);
    }
    const settled = await trx
      .updateTable("payments")
      .set({
        status: "succeeded",
        lease_until: null,
        paid_at: new Date(),
        updated_at: new Date(),
        next_action: null,
        error: null,
        details: JSON.stringify({ ...payment.details, ...(overpayments.length ? { overpayments } : {}) }),
      })
      .where("id", "=", payment.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { payment: toPayment(settled as unknown as Row), changed: true };
  });
  if (r.changed) await billingChanged.emit(app, { userId: r.payment.userId });
  return r;
}
