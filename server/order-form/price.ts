// The server-side price of an order form (never from the client): the whole form, and one service alone.
import {
  type Catalogue,
  getCatalogue,
  promoCodeOf,
  type PromoCode,
  type PriceInput,
  type PriceResult,
  priceSelection,
  priceTotal,
  type ServiceSelection,
} from "../catalogue";
import type { Scope } from "../scope";
import { voucherDiscount } from "../vouchers";
import { type OrderFormRow, saveOrderForm } from "./store";

/** Selections stored on the form, as the pricing engine takes them. */
export function selectionsOf(form: OrderFormRow): ServiceSelection[] {
  return (form.selections ?? []).map((s) => ({
    serviceSlug: s.serviceSlug,
    quantity: s.quantity,
    ...(s.originalServiceSlug ? { originalServiceSlug: s.originalServiceSlug } : {}),
  }));
}

/** The server-side price of the form as it stands (null before any service is chosen). */
export async function priceForm(scope: Scope, form: OrderFormRow, catalogue?: Catalogue): Promise<PriceResult | null> {
  // The currency is part of the key: a payment option may price the same form in another (FAPESP: USD).
  return scope.memo(`price:${form.id}:${form.version}:${form.currency_iso.trim()}`, () => computePrice(scope, form, catalogue));
}

/** What the pricing engine needs to know of the form besides the selection. */
export function priceBase(scope: Scope, form: OrderFormRow, now: Date): Omit<PriceInput, "selections" | "deliveryTier"> {
  return {
    currencyIso: form.currency_iso.trim(),
    wordCount: Math.max(form.word_count ?? 1, 1),
    languageId: form.language_id ?? 1,
    localization: scope.localization,
    areaOfStudyId: form.area_of_study_id,
    now,
    impersonating: scope.impersonatorId !== null,
    isReedit: form.rework,
  };
}

/**
 * What the pricing engine needs to know of the signed-in user (issue 25): the preferred group they joined (its
 * discount competes under the one-best-discount rule), their loyalty level (rush rules may name levels) and their
 * own promo codes (earned level benefits, a referred colleague's first-order code), which the cached catalogue does
 * not hold. A visitor's draft has none of them. The areas that write these (rewards, referrals, groups) stand above
 * the order form; it reads the rows, which belong to accounts and the catalogue.
 */
export interface PricingContext {
  preferredGroupCode: string | null;
  loyaltyLevel: string | null;
  ownPromoCodes: Record<string, PromoCode>;
}

const NO_CONTEXT: PricingContext = { preferredGroupCode: null, loyaltyLevel: null, ownPromoCodes: {} };

export function pricingContextOf(scope: Scope): Promise<PricingContext> {
  const userId = scope.userId;
  if (userId === null) return Promise.resolve(NO_CONTEXT);
  return scope.memo(`pricing-context:${userId}`, async () => {
    const [user, own] = await Promise.all([
      scope.app.db
        .selectFrom("users as u")
        .leftJoin("preferred_groups as g", (j) => j.onRef("g.id", "=", "u.preferred_group_id").on("g.active", "=", true))
        .select(["u.loyalty_level", "g.code as group_code"])
        .where("u.id", "=", userId)
        .executeTakeFirst(),
      scope.app.db.selectFrom("promo_codes").selectAll().where("user_id", "=", userId).where("active", "=", true).execute(),
    ]);
    return {
      preferredGroupCode: user?.group_code ?? null,
      loyaltyLevel: user?.loyalty_level ?? null,
      ownPromoCodes: Object.fromEntries(own.map((p) => [p.code.toUpperCase(), promoCodeOf(p)])),
    };
  });
}

export async function computePrice(scope: Scope, form: OrderFormRow, catalogue?: Catalogue): Promise<PriceResult | null> {
  const selections = selectionsOf(form);
  if (!selections.length) return null;
  const cat = catalogue ?? (await getCatalogue(scope.app));
  const snapshot = await scope.app.config.snapshot();
  const now = new Date();
  const price = priceSelection(cat, {
    ...priceBase(scope, form, now),
    ...(await pricingContextOf(scope)),
    selections,
    deliveryTier: form.delivery_tier,
    bundleId: form.bundle_id,
    promoCode: form.promo_code,
    flags: { show_express_service_options: snapshot.flags.show_express_service_options },
  });
  return withVoucher(scope, form, price, cat, now);
}

/**
 * Spec 2 §5: the amount payable is the sum of the line totals minus the voucher, floored at 0. The voucher
 * comes after every other discount and is not spread over the lines (it pays, it does not discount a service).
 */
async function withVoucher(scope: Scope, form: OrderFormRow, price: PriceResult, catalogue: Catalogue, now: Date): Promise<PriceResult> {
  if (!form.voucher_code) return price;
  const voucher = await voucherDiscount(scope.app.db, form, price.total, price.currency, { catalogue, now });
  if (!voucher) return price;
  return {
    ...price,
    discounts: [
      ...price.discounts,
      {
        kind: "Voucher",
        code: voucher.code,
        descriptionKey: "catalogue:discounts.voucher",
        percentBased: voucher.percent !== null,
        amount: voucher.percent ?? voucher.appliedAmount,
        appliedAmount: voucher.appliedAmount,
        applied: voucher.appliedAmount > 0,
      },
    ],
    total: Math.max(0, price.total - voucher.appliedAmount),
  };
}

/**
 * The price of one service alone, at the form's word count, language and
 * currency with standard delivery: the figure on its card in the services and
 * additional-services steps. Null when the service cannot be priced for this
 * manuscript (the card then shows no price).
 */
export function servicePrice(
  scope: Scope,
  form: OrderFormRow,
  catalogue: Catalogue,
  service: { slug: string; originalServiceSlug?: string },
  now = new Date(),
): number | null {
  try {
    const selection = {
      serviceSlug: service.slug,
      quantity: 1,
      ...(service.originalServiceSlug ? { originalServiceSlug: service.originalServiceSlug } : {}),
    };
    return priceTotal(catalogue, { ...priceBase(scope, form, now), selections: [selection], deliveryTier: "standard" });
  } catch {
    return null;
  }
}

/**
 * Keeps the stored delivery tier to one the engine offers for the form as it now stands (spec 1 §4
 * "Delivery tier"): after a change of word count, language, services or bundle, an express or rush
 * delivery that is no longer offered falls back to what the engine priced (standard), so the form, its
 * price and the pressed tier button always agree.
 */
export async function settleDeliveryTier(scope: Scope, form: OrderFormRow, catalogue?: Catalogue): Promise<OrderFormRow> {
  if (form.delivery_tier === "standard") return form;
  const price = await priceForm(scope, form, catalogue).catch(() => null);
  const offered = price ? price.deliveryTier : "standard";
  return offered === form.delivery_tier ? form : saveOrderForm(scope.app.db, form, { delivery_tier: offered });
}
