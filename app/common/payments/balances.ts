// The payment form's balance panel (issue 13, spec 2 §4–§6): what the researcher may spend from prepaid and
// credit balances on this payment, what was chosen and what is left to pay. Amounts in minor units of the
// payment's currency, computed on the server (server/payments/balances.ts).

export const PREPAY_OPTIONS = ["fullPayment", "partialPayment", "none"] as const;
export type PrepayOption = (typeof PREPAY_OPTIONS)[number];

/** The submit button's intent that only re-computes the total (no payment is made). */
export const BALANCES_INTENT = "balances";

export interface BalanceChoice {
  useCredits: boolean;
  prepayOption: PrepayOption;
  /** The partial amount as typed, in major units. */
  prepayAmount: string | null;
}

export interface BalancePanel {
  currency: { isoCode: string; sign: string; numDecimals: number };
  /** The amount before balances (after any voucher). */
  subtotal: number;
  /** Usable credits (0 unless worth at least 1 major unit in the user's currency, spec 2 §6). */
  credits: number;
  /** Available prepayment. */
  prepayment: number;
  /** The largest partial prepayment accepted now: min(prepayment, what is left after credits). */
  prepayMax: number;
  choice: BalanceChoice;
  applied: { credits: number; prepayment: number };
  /** subtotal − credits − prepayment, floored at 0 (spec 2 §5). */
  payable: number;
}
