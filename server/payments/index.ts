// The payments area's public face.
export * from "./methods";
export * from "./rules";
export * from "./offer";
export * from "./service";
export { idempotent, validIdempotencyKey, IDEMPOTENCY_KEY_MAX } from "./idempotency";
export { applyReservations, releaseReservations } from "./reserve";
export { balancePlan, spendPlanned, NO_BALANCES } from "./balances";
export { getProvider } from "./providers";
export { loadPaymentForm, panelFor } from "./form";
export { excludedForExisting } from "./form";
export { answer, headerKey } from "./api";
export { balanceChoiceOf } from "./balances";
export {
  countriesWithStates,
  derivedIdempotencyKey,
  invoiceNumbersOf,
  loadPayoff,
  parsePaymentSubmission,
  paymentCurrencies,
  savedAddresses,
} from "./form";
