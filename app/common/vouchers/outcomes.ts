// The voucher panel's outcomes, without the schemas (./schemas.ts): what the payment step needs in the browser.
/** Why a code is refused (server/vouchers verifyVoucher's errors, also the panel's messages). */
export const VOUCHER_ERRORS = [
  "voucher-code-empty",
  "voucher-not-found",
  "voucher-inactive",
  "voucher-expired",
  "voucher-used-up",
  "voucher-not-available",
  "too-many-requests",
] as const;

/** The payment step's `?voucher=` outcome: a message code from this closed list, never free text. */
export const VOUCHER_OUTCOMES = ["voucher-applied", "voucher-removed", ...VOUCHER_ERRORS] as const;
export type VoucherOutcome = (typeof VOUCHER_OUTCOMES)[number];
export const voucherOutcome = (v: string | null | undefined): VoucherOutcome | null =>
  (VOUCHER_OUTCOMES as readonly (string | null | undefined)[]).includes(v) ? (v as VoucherOutcome) : null;
