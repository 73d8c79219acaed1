// Order-form constants shared by pages (browser) and server modules.
/** The largest word count the order form takes (spec 1 §9); the pricing engine flags longer ones (veryLongWordCount). */
export const WORD_COUNT_MAX = 999_999;
export const PROJECT_TITLE_MAX = 512;
/** A target journal's name: at most this many characters, on the details step and the order's edit form alike (issue 22 item 4). */
export const JOURNAL_NAME_MAX = 255;

/** Payment method codes (spec 3 §9). */
export { PAYMENT_METHOD } from "../payments/methods";

/** The delivery tiers (spec 1 §4 "Delivery tier"). */
export const DELIVERY_TIERS = ["standard", "rush", "express"] as const;
export type DeliveryTierName = (typeof DELIVERY_TIERS)[number];

/** A posted tier as one of the three, or null for anything else ("turbo" is refused, not read as standard). */
export function deliveryTierOf(value: unknown): DeliveryTierName | null {
  return DELIVERY_TIERS.find((t) => t === value) ?? null;
}
