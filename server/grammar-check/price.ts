// 'Editing from 75' in the user's currency (spec 3 §2, §9: "a price of 75 in the user's currency"): the signed-in
// researcher's account currency, a visitor's the site's default (as a new order-form draft's, siteDraftCurrency).
// Formatted by #common/money only (ADR 054).
import { EDITING_PRICE_MAJOR } from "#common/grammar-check/constants";
import { formatMoney, minorOf } from "#common/money";
import type { Scope } from "../scope";
import { getUserView } from "../accounts/account";
import { siteDraftCurrency } from "../order-form";
import { currencyDecimals, listCurrencies } from "../kernel/reference";

export async function editingPrice(scope: Scope): Promise<string> {
  const user = scope.userId ? await getUserView(scope.app, scope.userId) : null;
  if (user) {
    const currency = { isoCode: user.currencyIso, sign: user.currency.sign, numDecimals: user.currency.numDecimals };
    return formatMoney(minorOf(EDITING_PRICE_MAJOR, currency.numDecimals), currency);
  }
  const { localizations } = await scope.app.config.snapshot();
  const site = localizations.find((l) => l.identity === scope.localization) ?? localizations[0];
  const iso = site ? siteDraftCurrency(site) : "USD";
  const [decimals, currencies] = await Promise.all([currencyDecimals(scope.app.db, iso), listCurrencies(scope.app.db)]);
  const numDecimals = decimals ?? 2;
  const sign = currencies.find((c) => c.isoCode === iso)?.sign ?? `${iso} `;
  return formatMoney(minorOf(EDITING_PRICE_MAJOR, numDecimals), { isoCode: iso, sign, numDecimals });
}
