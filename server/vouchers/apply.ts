// A voucher on the researcher's order form (spec 2 §4 "Applying a valid voucher selects the voucher method",
// issue 12 §7): applied to and removed from a draft only, like the promo code (server/order-form/promo.ts), and
// its effect on the price: after every other discount, off the amount payable, which never goes below 0
// (spec 2 §5). A fixed amount in another currency is converted with the day's exchange rates (units per 1 USD,
// table exchange_rates); nothing converted is stored here: the price is recomputed from the rates each time,
// and the placed order keeps the total with the rate it was priced at (PriceResult.currency.rate).
import { fail, ok, type Result } from "#common/result";
import { convertMinor, type CurrencyRate } from "#common/money";
import { applyBp, BP } from "../catalogue/money";
import { type Catalogue, currencyRate as rateOf, getCatalogue } from "../catalogue";
import type { DB } from "../db";
export { convertMinor, type CurrencyRate };
import type { Scope } from "../scope";
import { findOrderForm, OrderFormClosedError, ownerOf, saveOrderForm, type OrderFormRow } from "../order-form/store";
import { findVoucher, verifyVoucher, voucherAvailableTo, voucherProblem, type VoucherView } from "./verify";

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

/** A write on the owner's draft: another user's form is not found, a placed one `order-form-placed` (409). */
async function onDraft(
  scope: Scope,
  formId: string,
  write: (form: OrderFormRow) => Promise<Result<OrderFormRow>>,
): Promise<Result<OrderFormRow>> {
  if (!scope.userId) return fail("not-found");
  const form = await findOrderForm(scope.app.db, formId, ownerOf(scope));
  if (!form) return fail("not-found");
  if (form.status !== "draft") return fail("order-form-placed");
  try {
    return await write(form);
  } catch (error) {
    // Placed by a concurrent request after the check: the guarded write changed nothing (issue 10 §13).
    if (error instanceof OrderFormClosedError) return fail("order-form-placed");
    throw error;
  }
}

/**
 * Applies a voucher code to the user's draft order form (one voucher per form: a new code replaces the old).
 * Errors: `not-found`, `order-form-placed`, the verification codes of verifyVoucher.
 */
export async function applyVoucher(
  scope: Scope,
  formId: string,
  rawCode: string,
): Promise<Result<{ form: OrderFormRow; voucher: VoucherView }>> {
  let voucher: VoucherView | null = null;
  const r = await onDraft(scope, formId, async (form) => {
    const v = await verifyVoucher(scope, rawCode);
    if (!v.ok) return v;
    voucher = v.value.voucher;
    return ok(await saveOrderForm(scope.app.db, form, { voucher_code: v.value.voucher.code }));
  });
  return r.ok ? ok({ form: r.value, voucher: voucher! }) : r;
}

/** Removes the voucher from the user's draft (nothing applied: the form as it is). Errors: `not-found`, `order-form-placed`. */
export async function removeVoucher(scope: Scope, formId: string): Promise<Result<OrderFormRow>> {
  return onDraft(scope, formId, async (form) =>
    ok(form.voucher_code ? await saveOrderForm(scope.app.db, form, { voucher_code: null }) : form),
  );
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
