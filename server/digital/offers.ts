// What can be bought (spec 3 §3, §9; issue 24): the editing subscription (annual list price − 30 %) and the
// translation packages, each priced on the server from the USD list prices of app/common/digital/constants.ts,
// converted into the researcher's currency at the kernel's latest rate and rounded UP to a whole major unit (a
// price list, not a conversion to the cent). Money only through #common/money (ADR 054).
import {
  SINGLE_USE_USD_CENTS,
  SUBSCRIPTION_ANNUAL_LIST_USD_CENTS,
  SUBSCRIPTION_DISCOUNT_PERCENT,
  TRANSLATION_PACKAGES,
  type TranslationLanguage,
} from "#common/digital/constants";
import { convertMinor, divRound, minorOf, USD, type CurrencyFormat } from "#common/money";
import type { AppContext } from "../context";
import { currencyDecimals, latestExchangeRate } from "../kernel/reference";
import type { AvailablePurchase } from "./types";

export const EDITING_OFFER = "editing-annual" as const;
/** The subscription's USD price: the annual list price less the discount, in cents. */
export const SUBSCRIPTION_USD_CENTS = Number(
  divRound(BigInt(SUBSCRIPTION_ANNUAL_LIST_USD_CENTS) * BigInt(100 - SUBSCRIPTION_DISCOUNT_PERCENT), 100n, "up"),
);

export interface PriceCurrency extends CurrencyFormat {
  rate: string;
}

/** The researcher's currency with its rate; null when no rate is known (then nothing is offered). */
export async function priceCurrency(ctx: Pick<AppContext, "db">, isoCode: string): Promise<PriceCurrency | null> {
  if (isoCode === "USD") return USD;
  const [rate, numDecimals, row] = await Promise.all([
    latestExchangeRate(ctx.db, isoCode),
    currencyDecimals(ctx.db, isoCode),
    ctx.db.selectFrom("currencies").select("sign").where("iso_code", "=", isoCode).executeTakeFirst(),
  ]);
  if (!rate || numDecimals === null) return null;
  return { isoCode, sign: row?.sign ?? `${isoCode} `, numDecimals, rate };
}

/** USD cents → minor units of `currency`, rounded up to a whole major unit. */
export function listPrice(usdCents: number, currency: PriceCurrency): number {
  if (usdCents <= 0) return 0;
  const minor = convertMinor(usdCents, USD, currency, "up");
  const unit = minorOf(1, currency.numDecimals);
  return Number(divRound(BigInt(minor), BigInt(unit), "up")) * unit;
}

/** Every offer, priced in `currency`; `languages` are the translation languages the user may choose now. */
export function offersIn(currency: PriceCurrency, languages: TranslationLanguage[]): AvailablePurchase[] {
  const editing: AvailablePurchase = {
    identity: EDITING_OFFER,
    type: "editing",
    price: listPrice(SUBSCRIPTION_USD_CENTS, currency),
    fullPrice: listPrice(SUBSCRIPTION_ANNUAL_LIST_USD_CENTS, currency),
    currencyIso: currency.isoCode,
    numberOfUsesAvailable: null,
    name: `digital:offers.${EDITING_OFFER}`,
    allowedLanguages: [],
  };
  const packages = TRANSLATION_PACKAGES.map((p): AvailablePurchase => ({
    identity: p.identity,
    type: "translation",
    price: listPrice(p.priceUsdCents, currency),
    fullPrice: listPrice(p.uses * SINGLE_USE_USD_CENTS, currency),
    currencyIso: currency.isoCode,
    numberOfUsesAvailable: p.uses,
    name: `digital:offers.${p.identity}`,
    allowedLanguages: languages,
  }));
  return [editing, ...packages];
}
