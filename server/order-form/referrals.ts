// Referral e-mails (spec 1 §5).
import type { Scope } from "../scope";
import { type OrderFormRow, saveOrderForm } from "./store";

// ---- referral e-mails (spec 1 §5: comma-separated, 1 to 10 in total including those already present) ----

export const REFERRAL_EMAILS_MAX = 10;

export async function saveReferralEmails(
  scope: Scope,
  form: OrderFormRow,
  input: string | string[],
): Promise<{ ok: true; form: OrderFormRow } | { ok: false; error: "referral-email-validation-error" }> {
  const entries = (Array.isArray(input) ? input : input.split(",")).map((e) => String(e).trim().toLowerCase()).filter(Boolean);
  const existing = form.referral_emails ?? [];
  const all = [...new Set([...existing, ...entries])];
  const valid = entries.every((e) => /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/.test(e) && e.length <= 254);
  if (!entries.length || !valid || all.length > REFERRAL_EMAILS_MAX) return { ok: false, error: "referral-email-validation-error" };
  return { ok: true, form: await saveOrderForm(scope.app.db, form, { referral_emails: JSON.stringify(all) }) };
}
