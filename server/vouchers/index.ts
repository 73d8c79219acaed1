// Vouchers (issue 12 §7, ADR 038): verification of a code, applying it to the researcher's draft order form,
// its discount in the price, and its use when the order is placed. Staff create them (server/staff/vouchers.ts).
export {
  findVoucher,
  isVoucherError,
  normalizeVoucherCode,
  verifyVoucher,
  voucherAvailableTo,
  voucherErrorText,
  voucherProblem,
  voucherView,
  VOUCHER_CODE_MAX,
  VOUCHER_GUESSES_PER_10_MINUTES,
  VOUCHER_ERRORS,
  type VoucherError,
  type VoucherRow,
  type VoucherView,
} from "./verify";
export { appliedVoucherOf, convertMinor, voucherAmountOff, voucherDiscount, type AppliedVoucher, type CurrencyRate } from "./apply";
export { consumeVoucher } from "./consume";
