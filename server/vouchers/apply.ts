// A voucher's effect on the price of the researcher's order form (spec 2 §4, issue 12 §7; applying it to a draft
// and removing it are the order form's, server/order-form/voucher.ts, since vouchers load no order form: ADR 059):
// after every other discount, off the amount payable, which never goes below 0 (spec 2 §5). A fixed amount in
// another currency is converted with the day's exchange rates (units per 1 USD, table exchange_rates); nothing
// converted is stored here: the price is recomputed from the rates each time, and the placed order keeps the
// total with the rate it was priced at (PriceResult.currency.rate).
import { convertMinor, type CurrencyRate } from "#common/money";
import { applyBp, BP } from "../catalogue/money";
import { type Catalogue, currencyRate as rateOf, getCatalogue } from "../catalogue";
import type { DB } from "../db";
export { convertMinor, type CurrencyRate };
import type { Scope } from "../scope";
import type { OrderFormRow } from "../order-form/store";
import { findVoucher, voucherAvailableTo, voucherProblem, type VoucherView } from "./verify";

/**
 * What a voucher takes off `payable` (minor units of `currency`): a percentage rounded half up, or the fixed
 * amount (converted when its currency differs), never more than `payable` itself, so the amount payable is
 * floored at 0. `voucherCurrency` is the rate of the voucher's own currency (fixed amounts only).
 */
export function voucherAmountOff(
  voucher: Pick<VoucherView, "percent" | "amount" | "currencyIso">,
  payable: number,
  currency: CurrencyRate,
  voucherCurrency?: CurrencyRate,
): number {
  if (payable <= 0) return 0;
  let value = 0;
  if (voucher.percent !== null) value = applyBp(payable, voucher.percent * (BP / 100));
  else if (voucher.amount !== null && voucher.currencyIso) {
    if (voucher.currencyIso === currency.isoCode) value = voucher.amount;
    else if (voucherCurrency) value = convertMinor(voucher.amount, voucherCurrency, currency);
  }
  return Math.max(0, Math.min(value, payable));
}

export interface AppliedVoucher {
  code: string;
  percent: number | null;
  /** The voucher's own amount (percent, or minor units of its currency). */
  amount: number | null;
  currencyIso: string | null;
  /** What it takes off this order, minor units of the order's currency. */
  appliedAmount: number;
}

/**
 * The voucher on `form` as a discount of `payable` (the sum of the line totals, after the other discounts), or
 * null when the form has none, or it can no longer be used (deactivated, expired, used up since it was applied,
 * or the account may not use vouchers): the price then simply has no voucher line.
 */
export async function voucherDiscount(
  db: DB,
  form: Pick<OrderFormRow, "voucher_code" | "user_id">,
  payable: number,
  currency: CurrencyRate,
  options: { catalogue?: Catalogue; now?: Date; load?: () => Promise<Catalogue> } = {},
): Promise<AppliedVoucher | null> {
  if (!form.voucher_code) return null;
  const now = options.now ?? new Date();
  const row = await findVoucher(db, form.voucher_code);
  if (!row || voucherProblem(row, now) || !(await voucherAvailableTo(db, form.user_id))) return null;
  const iso = row.currency_iso?.trim() ?? null;
  let voucherCurrency: CurrencyRate | undefined;
  if (row.percent === null && iso && iso !== currency.isoCode) {
    const catalogue = options.catalogue ?? (await (options.load ?? (() => Promise.reject(new Error("no catalogue"))))());
    voucherCurrency = rateOf(catalogue, iso, now);
    // A currency without a rate cannot be converted: no discount rather than a guessed one.
    if (!voucherCurrency) return null;
  }
  const view = { percent: row.percent, amount: row.amount === null ? null : Number(row.amount), currencyIso: iso };
  return { code: row.code.toUpperCase(), ...view, appliedAmount: voucherAmountOff(view, payable, currency, voucherCurrency) };
}

/** The voucher currently on a form as the payment page shows it (null: none, or no longer usable). */
export async function appliedVoucherOf(
  scope: Scope,
  form: OrderFormRow,
  payable: number,
  currency: CurrencyRate,
): Promise<AppliedVoucher | null> {
  return voucherDiscount(scope.app.db, form, payable, currency, { load: () => getCatalogue(scope.app) });
}
