// Paying a prepayment through the shared payment flow (issue 13 §1, ADR 040; moved from server/payments/prepay.ts
// by ADR 056, payments never importing prepay): the prepay form is the shared
// payment form with purpose `prepay` (rules.ts: no Alipay, credits or vouchers). A new prepayment issues its
// retainer invoice first, in the researcher's currency, for the amount they typed; an existing unpaid one is
// paid for its balance. A provider is then charged like for invoices (insertPayment, charge, afterCharge) and
// settle() puts the money on the retainer invoice, billing's invoice of kind `prepayment` (ADR 058). Bank transfer issues the retainer invoice unpaid, with the
// bank's details to pay it: nothing is spendable until staff record the transfer (server/prepay/staff.ts).
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import { methodFacts } from "#common/payments/methods";
import type { PaymentAnswer, PaymentSubmission } from "#common/payments/types";
import type { Scope } from "../scope";
import { checkPrepayAmount, issueRetainer, lockRetainer, ownUnpaidRetainer, prepayAccount, type RetainerRow } from "./retainer";
import {
  afterCharge,
  billingOf,
  charge,
  declined,
  detailsOf,
  excludedForExisting,
  getProvider,
  idempotent,
  insertPayment,
  keepResult,
  markFailed,
  offeredMethodIds,
  paymentAnswer,
  type PaymentRow,
} from "../payments";

/** What is prepaid: a new prepayment of `amount` (major units as typed), or an existing retainer invoice. */
export type PrepayTarget = { amount: string } | { retainerInvoiceNumber: string };

/**
 * Pays a prepayment. Errors: `not-found` (another user's, paid or unknown retainer invoice), `not-allowed`
 * (prepay off, invoices hidden), `currency-not-chosen`, `accept-terms`, `payment-method-required`, the amount's
 * field errors (`prepay:errors.amount-*`), `payment-in-progress`, `payment-declined`.
 */
export async function payPrepayment(
  scope: Scope,
  target: PrepayTarget,
  submission: PaymentSubmission,
  idempotencyKey: string,
): Promise<Result<PaymentAnswer>> {
  const account = await prepayAccount(scope);
  if (!account) return fail("sign-in-required");
  const { flags } = await scope.app.config.snapshot();
  if (!flags.prepay_enabled || account.hideInvoices) return fail("not-allowed");
  if (!account.currencyChosen) return fail("currency-not-chosen");
  let existing: RetainerRow | null = null;
  let amount: number;
  if ("retainerInvoiceNumber" in target) {
    const r = await ownUnpaidRetainer(scope, target.retainerInvoiceNumber);
    if (!r.ok) return r;
    existing = r.value;
    amount = Number(existing.balance);
  } else {
    const r = await checkPrepayAmount(scope, account, target.amount);
    if (!r.ok) return r;
    amount = r.value;
  }
  if (!submission.acceptTerms) return fail("accept-terms");
  const allowed = await offeredMethodIds(scope, { purpose: "prepay", total: amount });
  if (!allowed.includes(submission.paymentMethodId) || excludedForExisting({ existing: Boolean(existing) }, submission.paymentMethodId))
    return fail("payment-method-required");
  const keyScope = existing ? `prepay:${existing.number}` : `prepay:new:${account.currency.isoCode}:${amount}`;
  return idempotent(
    scope.app,
    account.userId,
    idempotencyKey,
    keyScope,
    { submission, amount },
    () => payOnce(scope, account.userId, account.currency.isoCode, existing?.number ?? null, amount, submission),
    keepResult,
  );
}

async function payOnce(
  scope: Scope,
  userId: number,
  currencyIso: string,
  existingNumber: string | null,
  amount: number,
  submission: PaymentSubmission,
): Promise<Result<PaymentAnswer>> {
  const facts = methodFacts(submission.paymentMethodId);
  if (!facts.provider && !facts.billedByInvoice) return fail("payment-method-required");
  const provider = facts.provider ? getProvider(scope.app, facts.provider) : null;
  const created = await scope.app.db
    .transaction()
    .execute(async (trx): Promise<Result<{ retainer: RetainerRow; payment: PaymentRow | null }>> => {
      let retainer: RetainerRow;
      if (existingNumber) {
        // The retainer invoice's row is the lock: attempts to pay it queue here and each sees the one before.
        const locked = await lockRetainer(trx, existingNumber);
        if (!locked || locked.user_id !== userId) return fail("not-found");
        if (locked.status !== "unpaid" || Number(locked.balance) <= 0) return fail("invoice-already-paid");
        retainer = locked;
        const busy = await trx
          .selectFrom("payments")
          .select("id")
          .where("purpose", "=", "prepay")
          .select("status")
          .where("status", "in", ["processing", "pending"])
          .where(sql<string>`details->>'retainerInvoiceNumber'`, "=", retainer.number)
          .executeTakeFirst();
        // One open attempt per retainer invoice too (ADR 051): a pending one is where the researcher pays.
        if (busy?.status === "pending")
          return fail("payment-pending", { paymentId: busy.id, url: paths.paymentPending(scope.lang, busy.id) });
        if (busy) return fail("payment-in-progress");
        await trx
          .updateTable("invoices")
          .set({
            method_id: submission.paymentMethodId,
            billing: JSON.stringify(billingOf(submission)),
            purchase_order: submission.purchaseOrder,
            fapesp_process_number: submission.fapespProcessNumber,
          })
          .where("number", "=", retainer.number)
          .execute();
      } else {
        retainer = await issueRetainer(trx, scope, {
          userId,
          currencyIso,
          amount,
          methodId: submission.paymentMethodId,
          billing: billingOf(submission),
          purchaseOrder: submission.purchaseOrder,
          fapespProcessNumber: submission.fapespProcessNumber,
        });
      }
      if (!provider) return ok({ retainer, payment: null });
      const payment = await insertPayment(trx, {
        userId,
        impersonatorId: scope.impersonatorId,
        purpose: "prepay",
        orderFormId: null,
        invoiceNumbers: [],
        methodId: submission.paymentMethodId,
        provider,
        amount: Number(retainer.balance),
        currencyIso: retainer.currency_iso,
        exchangeRate: null,
        // Allocated to its invoice like an invoice payment: settle() credits it through billing (ADR 058).
        details: detailsOf(scope, submission, {
          retainerInvoiceNumber: retainer.number,
          allocations: [{ invoiceNumber: retainer.number, amount: Number(retainer.balance) }],
        }),
      });
      return ok({ retainer, payment });
    });
  if (!created.ok) return created;
  const { retainer, payment } = created.value;
  // Bank transfer: the retainer invoice waits for the money; its page shows where to send it.
  if (!payment || !provider)
    return ok({
      paymentId: null,
      status: "pending",
      redirectUrl: paths.prepay(scope.lang, retainer.number, { issued: "1" }),
      redirectForm: null,
      error: null,
    });
  const result = await charge(scope, provider, payment, submission, `Prepayment ${retainer.number}`);
  if (result.status === "failed") {
    const failed = await markFailed(scope.app, payment.id, result);
    // A new prepayment whose card was declined leaves nothing owed: its retainer invoice is voided.
    if (!existingNumber)
      await scope.app.db
        .updateTable("invoices")
        .set({ status: "void" })
        .where("number", "=", retainer.number)
        .where("kind", "=", "prepayment")
        .where("status", "=", "unpaid")
        .execute();
    return declined(failed);
  }
  return ok(paymentAnswer(await afterCharge(scope.app, payment.id, result)));
}
