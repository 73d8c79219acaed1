// Referral e-mails (spec 1 §5): comma-separated, 1 to 10 in total including those already present.
import { fail, ok, type Result } from "#common/result";
import { REFERRAL_EMAILS_MAX, referralEmail, referralEntries } from "#common/order-form/schemas";
import type { Scope } from "../scope";
import { saveOrderForm, type OrderFormRow } from "./store";

export { REFERRAL_EMAILS_MAX };

/** Adds the posted addresses (an array or comma-separated text) to the form's referral list. */
export async function saveReferralEmails(scope: Scope, form: OrderFormRow, input: unknown): Promise<Result<OrderFormRow>> {
  const entries = referralEntries(input);
  const all = [...new Set([...(form.referral_emails ?? []), ...entries])];
  const valid = entries.every((e) => referralEmail.safeParse(e).success);
  if (!entries.length || !valid || all.length > REFERRAL_EMAILS_MAX) return fail("referral-email-validation-error");
  return ok(await saveOrderForm(scope.app.db, form, { referral_emails: JSON.stringify(all) }));
}
