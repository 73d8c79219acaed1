// The "My Order" panel (spec 1 §2): line items, discounts, total and deadline, computed on the server.
import type { PriceResult } from "../catalogue";

/** Discount descriptions the summary does not show (spec 1 §9). */
export const HIDDEN_DISCOUNT_DESCRIPTIONS = new Set(["Preferred group discount", "Service discount", "Re-edit discount"]);

export interface OrderSummary {
  currency: { isoCode: string; sign: string; numDecimals: number };
  lineItems: {
    serviceIdentity: string;
    serviceSlug: string;
    nameKey: string;
    quantity: number;
    listPrice: number;
    discountAmount: number;
    totalPrice: number;
  }[];
  discounts: { kind: string; code?: string; descriptionKey: string; showDescription: boolean; appliedAmount: number }[];
  subtotal: number;
  total: number;
  deadline: string | null;
  deliveryTier: string;
  notices: string[];
  noServiceOption: boolean;
  veryLongWordCount: boolean;
}

export function summarize(price: PriceResult | null): OrderSummary | null {
  if (!price) return null;
  return {
    currency: { isoCode: price.currency.isoCode, sign: price.currency.sign, numDecimals: price.currency.numDecimals },
    lineItems: price.lineItems.map((l) => ({
      serviceIdentity: l.serviceIdentity,
      serviceSlug: l.serviceSlug,
      nameKey: l.nameKey,
      quantity: l.quantity,
      listPrice: l.listPrice,
      discountAmount: l.discountAmount,
      totalPrice: l.totalPrice,
    })),
    discounts: price.discounts
      .filter((d) => d.applied)
      .map((d) => ({
        kind: d.kind,
        code: d.code,
        descriptionKey: d.descriptionKey,
        showDescription: !HIDDEN_DISCOUNT_DESCRIPTIONS.has(d.kind),
        appliedAmount: d.appliedAmount,
      })),
    subtotal: price.subtotal,
    total: price.total,
    deadline: price.deadline ? price.deadline.toISOString() : null,
    deliveryTier: price.deliveryTier,
    notices: price.notices,
    noServiceOption: price.noServiceOption,
    veryLongWordCount: price.veryLongWordCount,
  };
}
