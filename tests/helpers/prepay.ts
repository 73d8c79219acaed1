// Prepay test helpers (issue 13 §1): card and bank-transfer submissions of the shared payment form, and a
// researcher whose currency was never chosen (as accounts staff made are).
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { PaymentSubmission } from "#common/payments/types";
import type { AppContext } from "../../server/context";
import { paymentSubmission } from "./payments";

/** A sandbox card submission: each one brings its own one-time nonce. */
export const cardSubmission = (over: Partial<PaymentSubmission> = {}): PaymentSubmission =>
  paymentSubmission(PAYMENT_METHOD.creditCard, { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, ...over });

export const bankTransferSubmission = (over: Partial<PaymentSubmission> = {}): PaymentSubmission =>
  paymentSubmission(PAYMENT_METHOD.bankTransfer, over);

/** Marks the user's currency as never chosen (the chooser shows before prepaying). */
export async function currencyNotChosen(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db.updateTable("users").set({ currency_chosen: false }).where("id", "=", userId).execute();
}
