// The prepay payment form's server side (issue 13 §1): what the form renders for a locked amount or an unpaid
// retainer invoice, and a submission parsed by the form's one schema (ADR 060) and paid by
// payPrepayment (payment.ts). The page and POST /api/prepay/payment both come here.
import { fail, ok, type Result } from "#common/result";
import type { CurrencyFormat } from "#common/format";
import type { PaymentFields, PaymentFormData } from "#common/payments/schemas";
import type { PaymentAnswer } from "#common/payments/types";
import type { Scope } from "../scope";
import { prepayPaymentForm } from "../payments/form";
import { parsePaymentForm } from "#common/payments/form-schema";
import { payPrepayment, type PrepayTarget } from "./payment";
import { storedAnswer } from "../payments/idempotency";
import { checkPrepayAmount, ownUnpaidRetainer, prepayAccount } from "./retainer";

export interface PrepayForm {
  /** Minor units to pay. */
  amount: number;
  currency: CurrencyFormat;
  data: PaymentFormData;
}

/** The payment form for a prepayment target. Errors: not-found, not-allowed, the amount's field errors. */
export async function prepayForm(scope: Scope, target: PrepayTarget): Promise<Result<PrepayForm>> {
  const account = await prepayAccount(scope);
  if (!account) return fail("sign-in-required");
  const { flags } = await scope.app.config.snapshot();
  if (account.hideInvoices || !flags.prepay_enabled) return fail("not-allowed");
  if ("retainerInvoiceNumber" in target) {
    const r = await ownUnpaidRetainer(scope, target.retainerInvoiceNumber);
    if (!r.ok) return r;
    const amount = Number(r.value.balance);
    const currency =
      r.value.currency_iso === account.currency.isoCode ? account.currency : await currencyFormat(scope, r.value.currency_iso);
    return ok({ amount, currency, data: await prepayPaymentForm(scope, amount, currency.isoCode, { existing: true }) });
  }
  const checked = await checkPrepayAmount(scope, account, target.amount);
  if (!checked.ok) return checked;
  return ok({
    amount: checked.value,
    currency: account.currency,
    data: await prepayPaymentForm(scope, checked.value, account.currency.isoCode),
  });
}

async function currencyFormat(scope: Scope, iso: string): Promise<CurrencyFormat> {
  const c = await scope.app.db.selectFrom("currencies").select(["sign", "num_decimals"]).where("iso_code", "=", iso).executeTakeFirst();
  return { isoCode: iso, sign: c?.sign ?? iso, numDecimals: c?.num_decimals ?? 2 };
}

/** Checks the posted payment form and pays. A retry after this very key paid the retainer answers the same. */
export async function submitPrepayment(
  scope: Scope,
  target: PrepayTarget,
  fields: PaymentFields,
  key: string,
): Promise<Result<PaymentAnswer>> {
  const form = await prepayForm(scope, target);
  if (!form.ok) {
    if ("retainerInvoiceNumber" in target && form.error === "not-found" && scope.userId !== null) {
      const replay = await storedAnswer<PaymentAnswer>(scope.app, scope.userId, key, `prepay:${target.retainerInvoiceNumber}`);
      if (replay) return replay;
    }
    return form;
  }
  const submission = parsePaymentForm(fields, form.value.data);
  if (!submission.ok) return submission;
  return payPrepayment(scope, target, submission.value, key);
}
