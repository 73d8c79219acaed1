// Refunds (the staff console, /{lang}/staff/payments/{id}; issue 21 §2, ADR 051). A refund is taken from the
// payment's surplus first: its overpayment credits are taken back while unspent. What is refunded beyond the
// surplus comes off the invoices the payment paid only when staff explicitly choose to re-open them (the form's
// "re-open the invoice" option, off by default): refunding a duplicate never turns a settled invoice back into
// a debt, nor its order back to "awaiting payment".
import { fail, ok, type Result } from "#common/result";
import type { ProviderId } from "#common/payments/methods";
import type { Scope } from "../scope";
import type { Actor } from "../kernel/actor";
import { billingChanged, invoiceReopened } from "../billing/invoices/events";
import { overpaymentsOf, takeBackOverpayment } from "../billing";
import { getProvider } from "./providers";
import { readPayment, toPayment, type PaymentRow, type Row } from "./read";
import { refundAtProvider } from "./refund-at-provider";

export interface RefundOptions {
  /** Put what is refunded beyond the surplus back on the invoices (they are owed again). Default: no. */
  reopen?: boolean;
}

const invalidAmount = () => ({ ok: false as const, error: "invalid-amount", fieldErrors: { amount: "staffpay:errors.invalid-amount" } });

/**
 * Refunds part or all of a settled payment through its provider. Errors: not-found, not-refundable (409), invalid
 * amount, the provider's refusal.
 */
export async function refundPayment(
  scope: Scope,
  paymentId: string,
  amount: number,
  reason: string,
  options: RefundOptions = {},
): Promise<Result<PaymentRow>> {
  const payment = await readPayment(scope.app.db, paymentId);
  if (!payment) return fail("not-found");
  if (payment.status !== "succeeded" || !payment.providerRef) return fail("not-refundable");
  const refundable = payment.amount - payment.refundedAmount;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > refundable) return invalidAmount();
  // A payment converted from several currencies goes back whole: its parts have no exact share in USD.
  if (payment.exchangeRate && amount !== refundable) return invalidAmount();
  const reopen = options.reopen === true;
  const provider = getProvider(scope.app, payment.provider as ProviderId);
  const refund = await refundAtProvider(
    scope.app.db,
    provider,
    { ...payment, providerRef: payment.providerRef },
    amount,
    { amount, reason, reopen },
    scope.userId,
  );
  if (!refund.ok) return fail("refund-failed", { message: refund.error });
  const actor: Actor = { userId: scope.userId, impersonatorId: scope.impersonatorId };
  const updated = await scope.app.db.transaction().execute(async (trx) => {
    const locked = (await readPayment(trx, payment.id, true))!;
    const refunded = locked.refundedAmount + amount;
    // The surplus first: its credits, while unspent (a converted payment's whole surplus, in each currency).
    let fromSurplus = 0;
    if (locked.exchangeRate) {
      for (const c of await overpaymentsOf(trx, locked.id))
        fromSurplus += await takeBackOverpayment(trx, locked.id, c.currencyIso, c.unspent, actor);
    } else fromSurplus = await takeBackOverpayment(trx, locked.id, locked.currencyIso, amount, actor);
    let left = locked.exchangeRate ? Number.MAX_SAFE_INTEGER : amount - fromSurplus;
    const reopened: { invoiceNumber: string; amount: number }[] = [];
    const today = new Date().toISOString().slice(0, 10);
    // Only when staff chose it: back onto the invoices, newest allocation first (a converted payment reopens each whole).
    for (const a of reopen ? [...(locked.details.allocations ?? [])].reverse() : []) {
      if (left <= 0) break;
      const invoice = await trx
        .selectFrom("invoices")
        .select(["number", "balance", "order_id", "currency_iso", "amount"])
        .where("number", "=", a.invoiceNumber)
        // Only an order's invoice is re-opened: a prepayment's money is already a balance (ADR 058).
        .where("kind", "=", "order")
        .forUpdate()
        .executeTakeFirst();
      if (!invoice || invoice.order_id === null) continue;
      // Never more than the payment put on it (the allocation may have exceeded what was due: that was surplus).
      const share = Math.min(a.amount, left, Number(invoice.amount) - Number(invoice.balance));
      left -= Math.min(a.amount, left);
      if (share <= 0) continue;
      await trx
        .insertInto("invoice_payments")
        .values({
          invoice_number: invoice.number,
          amount: share,
          currency_iso: invoice.currency_iso,
          payment_method_id: locked.methodId,
          reference: `refund:${locked.id}:${refunded}`,
          received_on: today,
          recorded_by: actor.userId,
          payment_id: locked.id,
          kind: "refund",
        })
        .execute();
      await trx
        .updateTable("invoices")
        .set({ balance: Number(invoice.balance) + share, status: "unpaid" })
        .where("number", "=", invoice.number)
        .execute();
      // Its order is unpaid again: orders' handler, in this transaction (ADR 056).
      await invoiceReopened.emit(trx, { invoiceNumber: invoice.number, orderId: invoice.order_id, amount: share, actor });
      reopened.push({ invoiceNumber: invoice.number, amount: share });
    }
    const refunds = [...(locked.details.refunds ?? []), { amount, fromSurplus, reopened, at: new Date().toISOString() }];
    const row = await trx
      .updateTable("payments")
      .set({
        refunded_amount: refunded,
        status: refunded >= locked.amount ? "refunded" : "succeeded",
        details: JSON.stringify({ ...locked.details, refunds }),
        updated_at: new Date(),
      })
      .where("id", "=", locked.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPayment(row as unknown as Row);
  });
  await billingChanged.emit(scope.app, { userId: payment.userId });
  return ok(updated);
}
