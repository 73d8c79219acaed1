// Prepayments (issue 13 §1–2, ADR 040): retainer invoices, the prepay pages' data, the staff's transfers, the
// currency chooser and the retainer invoice's PDF. Paying one goes through server/payments (prepay.ts).
export { prepayApi } from "./api";
export { loadPrepayData, minimumText, prepayBankDetails, type PrepayData, type PrepaymentView, type CreditView } from "./load";
export { prepayForm, submitPrepayment, type PrepayForm } from "./pay";
export { prepayAccount, checkPrepayAmount, ownUnpaidRetainer, prepayMinimum, DEFAULT_PREPAY_MINIMUM, type PrepayAccount } from "./retainer";
export { recordRetainerTransfer, staffRetainerPage, unpaidRetainers, type StaffRetainer, type UnpaidRetainer } from "./staff";
export { chooseCurrency, currencyChoices } from "./currency";
export { retainerInvoicePdf } from "./documents";
