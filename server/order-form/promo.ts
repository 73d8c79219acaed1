// Promo codes (spec 1 §4 "Discounts", §8): one per order; a better discount in place keeps it unused.
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { checkPromoCode, getCatalogue, withOwnPromoCodes } from "../catalogue";
import type { Scope } from "../scope";
import { priceForm, pricingContextOf } from "./price";
import { type OrderFormRow, saveOrderForm } from "./store";

// ---- promo codes (spec 1 §4 "Discounts", §8) ---------------------------------------

export type PromoResult = Result<{ form: OrderFormRow; message: "coupon-applied-message" | "best-discount-applied" }>;

const PROMO_ERRORS: Record<string, string> = {
  "promo-code-empty": "promo-code-empty",
  "one-promo-code-per-order": "one-promo-code-per-order",
  "promo-code-invalid": "promo-code-invalid",
  "promo-code-expired": "promo-code-expired",
  "promo-code-used-up": "promo-code-used-up",
};

export async function applyPromoCode(scope: Scope, form: OrderFormRow, code: string): Promise<PromoResult> {
  const catalogue = await getCatalogue(scope.app);
  // The user's own codes (issue 25: earned benefits, a referral's first-order code) count as well as public ones.
  const own = (await pricingContextOf(scope)).ownPromoCodes;
  const check = checkPromoCode(withOwnPromoCodes(catalogue, own), code, { now: new Date(), currentCode: form.promo_code });
  if (!check.ok) return fail(PROMO_ERRORS[check.error] ?? "promo-code-invalid");
  // The cached catalogue's use count lags behind placements (it is cached for minutes): the limit is read
  // from the row itself, so a used-up code is refused at once (issue 9 §5). Placing re-checks it atomically.
  const uses = await scope.app.db
    .selectFrom("promo_codes")
    .select(["times_used", "max_uses"])
    .where(sql`upper(code)`, "=", check.promo.code.toUpperCase())
    .executeTakeFirst();
  if (uses && uses.max_uses !== null && Number(uses.times_used) >= uses.max_uses) return fail("promo-code-used-up");
  const saved = await saveOrderForm(scope.app.db, form, { promo_code: check.promo.code });
  const price = await priceForm(scope, saved, catalogue);
  // One order-level discount applies: a better one already in place keeps the code unused (spec 1 §8).
  return ok({
    form: saved,
    message: price?.bestDiscountApplied ? ("best-discount-applied" as const) : ("coupon-applied-message" as const),
  });
}

export async function removePromoCode(scope: Scope, form: OrderFormRow): Promise<OrderFormRow> {
  return saveOrderForm(scope.app.db, form, { promo_code: null });
}
