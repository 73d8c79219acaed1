// The offers priced for the signed-in researcher (their account currency; USD when no rate is known for it).
import type { Scope } from "../scope";
import { digitalAccess, languagesFor } from "./access";
import { offersIn, priceCurrency, type PriceCurrency } from "./offers";
import type { AvailablePurchase } from "./types";
import { USD } from "#common/money";
import { userRowOf } from "../accounts/user-row";

/** The user's currency with its rate (USD when none is known). */
export async function userPriceCurrency(scope: Scope): Promise<PriceCurrency> {
  const user = await userRowOf(scope.app, scope.userId!);
  if (!user) throw new Error("no such user");
  return (await priceCurrency(scope.app, user.currency_iso.trim())) ?? USD;
}

export async function loadOffers(scope: Scope): Promise<AvailablePurchase[]> {
  const [currency, access] = await Promise.all([userPriceCurrency(scope), digitalAccess(scope)]);
  return offersIn(currency, languagesFor(access));
}
