// The currency chooser (issue 13 §2, spec 2 §2 "Choose-currency"): an account whose currency was never chosen
// (users.currency_chosen false: older accounts, accounts staff made) picks one before it prepays. Chinese yuan is
// not selectable (currencies.selectable, spec 2 §9); the choice is final, so a second one is refused.
import { fail, invalid, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { paymentCurrencies } from "../payments/form";
import { invalidateUser } from "../accounts/user-cache";

export interface CurrencyChoices {
  currencies: { isoCode: string; shortName: string }[];
  /** Preselected: the order's currency when the way back names one of the user's orders, else USD. */
  preselected: string;
  chosen: boolean;
}

/** The chooser's list for the signed-in user. `redirect` is where they go back to (it may name an order). */
export async function currencyChoices(scope: Scope, redirect: string): Promise<Result<CurrencyChoices>> {
  if (scope.userId === null) return fail("sign-in-required");
  const [currencies, user] = await Promise.all([
    paymentCurrencies(scope.app.db, scope.lang),
    scope.app.db.selectFrom("users").select("currency_chosen").where("id", "=", scope.userId).executeTakeFirstOrThrow(),
  ]);
  let preselected = "USD";
  const order = /\/details\/([A-Za-z0-9-]{1,40})/.exec(redirect)?.[1];
  if (order) {
    const row = await scope.app.db
      .selectFrom("orders")
      .select("currency_iso")
      .where("external_id", "=", order)
      .where("user_id", "=", scope.userId)
      .executeTakeFirst();
    const iso = row?.currency_iso.trim();
    if (iso && currencies.some((c) => c.isoCode === iso)) preselected = iso;
  }
  return ok({ currencies, preselected, chosen: user.currency_chosen });
}

/**
 * Saves the account's currency once. Errors: `currency-change-not-allowed` (403: chosen before), a field error
 * `currencyIso: prepay:errors.currency-invalid` (unknown or not selectable, e.g. CNY).
 */
export async function chooseCurrency(scope: Scope, currencyIso: string): Promise<Result<{ currencyIso: string }>> {
  if (scope.userId === null) return fail("sign-in-required");
  const iso = currencyIso.trim().toUpperCase();
  const selectable = await scope.app.db
    .selectFrom("currencies")
    .select("iso_code")
    .where("iso_code", "=", iso)
    .where("selectable", "=", true)
    .executeTakeFirst();
  if (!/^[A-Z]{3}$/.test(iso) || !selectable) return invalid({ currencyIso: "prepay:errors.currency-invalid" });
  // Only a user who has not chosen yet: the update's own condition, so two racing choices save one.
  const saved = await scope.app.db
    .updateTable("users")
    .set({ currency_iso: iso, currency_chosen: true })
    .where("id", "=", scope.userId)
    .where("currency_chosen", "=", false)
    .returning("id")
    .executeTakeFirst();
  if (!saved) return fail("currency-change-not-allowed");
  await invalidateUser(scope.app, scope.userId);
  return ok({ currencyIso: iso });
}
