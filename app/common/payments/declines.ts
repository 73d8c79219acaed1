// A provider's refusal in words the researcher reads in their own language (issue 21 screenshot review: pt-BR pages
// showed the card sandbox's "Unknown or expired payment_method_nonce." and "Do Not Honor" in English). The
// provider's own code and text stay on the payment (payments.error, details.declineCode, its events) for staff;
// the researcher's page and the API answer say the reason: `payment:declines.<reason>`, one of DECLINE_REASONS.
export const DECLINE_REASONS = [
  "card-declined",
  "insufficient-funds",
  "card-expired",
  "card-details-expired",
  "card-number-invalid",
  "card-rejected",
  "paypal-declined",
  "provider-unavailable",
  "cancelled",
  "failed",
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Braintree processor codes that are not a plain "declined by the bank". */
const CARD_CODES: Record<string, DeclineReason> = {
  "2001": "insufficient-funds",
  "2004": "card-expired",
  "2005": "card-number-invalid",
  "3000": "provider-unavailable",
  // Gateway errors: a card form's nonce that is unknown, expired or used twice, an invalid number.
  "91565": "card-details-expired",
  "93107": "card-details-expired",
  "81715": "card-number-invalid",
  gateway_rejected: "card-rejected",
  "provider-unavailable": "provider-unavailable",
};

/**
 * The reason of a failed payment: from the provider's code when it gave one (Braintree's processor response and
 * gateway codes, PayPal's issue), else from its text; anything unknown is `failed`.
 */
export function declineReason(provider: string, code: string | null | undefined, text: string | null | undefined): DeclineReason {
  const c = (code ?? "").trim();
  const s = (text ?? "").trim();
  if (c && CARD_CODES[c]) return CARD_CODES[c];
  if (provider === "card" && /^2\d{3}$/.test(c)) return "card-declined";
  if (s === "provider-unavailable" || /unavailable|try again/i.test(s)) return "provider-unavailable";
  if (s === "cancelled" || s === "canceled") return "cancelled";
  if (/payment_method_nonce/i.test(s)) return "card-details-expired";
  if (/insufficient funds/i.test(s)) return "insufficient-funds";
  if (/gateway rejected/i.test(s)) return "card-rejected";
  if (/INSTRUMENT_DECLINED/.test(s) || (provider === "paypal" && /declin/i.test(s))) return "paypal-declined";
  if (/do not honor|declin|card number is invalid/i.test(s)) return /invalid/i.test(s) ? "card-number-invalid" : "card-declined";
  return "failed";
}
