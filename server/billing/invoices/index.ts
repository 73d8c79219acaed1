// The invoices area's public face (named exports only; issue 21 §6). Billing emits events (events.ts) that the
// areas above handle (ADR 056); it imports none of them.
export {
  INVOICE_DUE_DAYS,
  invoiceNumberOf,
  issueInvoice,
  issuePrepaymentInvoice,
  usdBaseAtIssue,
  type InvoiceInput,
  type PrepaymentInvoiceInput,
} from "./issue";
export {
  PAYMENT_REFERENCE_MAX,
  creditInvoice,
  invoiceLedger,
  invoicePayments,
  lockInvoice,
  recordBankPayment,
  validReceivedOn,
  type BankPaymentInput,
  type CreditInput,
  type LockedInvoice,
  type RecordedPayment,
} from "./payments";
export { WRITEOFF_METHOD_ID, WRITEOFF_REFERENCE, writeOffInvoice, type WriteoffResult } from "./writeoff";
export { issuingEntity, type LegalEntity } from "./entity";
export { oneLineInvoicePdf, type OneLineFacts, type OneLineInvoiceOptions } from "./one-line-pdf";
export { billingChanged, invoiceReopened, invoiceSettled, invoiceWriteOff, type InvoiceSettled } from "./events";
