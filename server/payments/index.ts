// The payments area's public face (named exports only; issue 21 §6). Payments charge through the providers and
// settle into billing; they import no orders or prepay code (ADR 056): the areas above (orders' wizard payment,
// prepay's payment) call these and react to payments' events (events.ts).
export { PAYMENT_METHOD, type PaymentMethodId } from "./methods";
export { availableMethods, methodAllowed, offersBrazilChoice, type MethodChoice, type MethodContext } from "./rules";
export { methodContext, offeredMethodIds, offeredMethods, type OfferInput, type OfferedMethod } from "./offer";
export {
  declined,
  findPayment,
  keepResult,
  ownPayment,
  paymentAnswer,
  paymentLanding,
  paymentLang,
  readPayment,
  type PaymentDetails,
  type PaymentPurpose,
  type PaymentRow,
  type PaymentStatus,
} from "./read";
export { invoicesTotal, payInvoices, replayedInvoicesPayment, type InvoiceTotal } from "./pay-invoices";
export { billingOf, detailsOf, insertPayment, type NewPayment } from "./submit";
export { afterCharge, charge, markFailed, undo, SYSTEM_ACTOR } from "./charge";
export { refundAtProvider } from "./refund-at-provider";
export { recordEvent } from "./record-event";
export { instrumentOf, paymentAddressesOf, paymentInstrumentsOf } from "./instruments";
export { applyProviderEvent } from "./confirm";
export { balanceChoice, refuseShortfall, refusing } from "./refuse";
export { idempotent, validIdempotencyKey, IDEMPOTENCY_KEY_MAX } from "./idempotency";
export { applyReservations, releaseReservations } from "./reserve";
export { balancePlan, spendPlanned, NO_BALANCES } from "./balances";
export { getProvider } from "./providers";
export {
  countriesWithStates,
  derivedIdempotencyKey,
  excludedForExisting,
  invoiceNumbersOf,
  loadPaymentForm,
  loadPayoff,
  panelFor,
  paymentCurrencies,
  savedAddresses,
} from "./form";
export { answer, headerKey } from "./api";
