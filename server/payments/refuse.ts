// Refusing a payment from inside its transaction (ADR 051): a balance asked for and no longer there whole throws
// a `Refused` out of the transaction so that it rolls back (nothing held, nothing charged, no order placed), and
// `refusing` turns it back into the Result the page or the API answers. Also the balances a submission asks for.
import { fail, type Result } from "#common/result";
import type { PaymentSubmission } from "#common/payments/types";
import type { BalancePanel } from "#common/payments/balances";
import { choiceOfSubmission } from "./balances";
import { PAYMENT_METHOD } from "#common/payments/methods";

/** A refusal thrown out of a transaction so that it rolls back (a balance asked for and no longer there). */
class Refused extends Error {
  constructor(readonly result: Result<never>) {
    super(result.ok ? "" : result.error);
  }
}

export async function refusing<T>(run: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

/**
 * ADR 051: a balance asked for must be there whole, or the payment is refused (never made without it). One
 * minor unit per invoice and kind is the rounding a conversion may lose.
 */
export function refuseShortfall(plan: BalancePanel, got: { credits: number; prepayment: number }, invoices: number) {
  const slack = 2 * invoices;
  if (got.credits + slack < plan.applied.credits || got.prepayment + slack < plan.applied.prepayment)
    throw new Refused(fail("balance-unavailable"));
}

/** The balances a submission asks to spend; choosing the credits method means using them (spec 2 §4). */
export function balanceChoice(s: PaymentSubmission) {
  const choice = choiceOfSubmission(s);
  return s.paymentMethodId === PAYMENT_METHOD.credits ? { ...choice, useCredits: true } : choice;
}
