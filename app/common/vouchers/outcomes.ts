// The voucher panel's outcomes, without the schemas (./schemas.ts): what the payment step needs in the browser.
/** The payment step's `?voucher=` outcome: a message code from this closed list, never free text. */
export const VOUCHER_OUTCOMES = [
  "voucher-applied",
  "voucher-removed",
  "voucher-code-empty",
  "voucher-not-found",
  "voucher-inactive",
  "voucher-expired",
  "voucher-used-up",
  "voucher-not-available",
  "too-many-requests",
] as const;
export type VoucherOutcome = (typeof VOUCHER_OUTCOMES)[number];
export const voucherOutcome = (v: string | null | undefined): VoucherOutcome | null =>
  (VOUCHER_OUTCOMES as readonly (string | null | undefined)[]).includes(v) ? (v as VoucherOutcome) : null;
