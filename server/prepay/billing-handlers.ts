// How a prepayment follows its invoice (issue 21 §1, ADR 056, ADR 058). A prepayment is an invoice of kind
// `prepayment` that billing credits like any other; once it is settled in full, this handler (registered at
// start-up by server/event-handlers.ts) makes its money a prepaid balance: the deposit movement, once, in the
// transaction that settled it. Orders' handler reacts to kind `order` the same way.
import { depositPrepayment, invoiceSettled } from "../billing";

export function registerPrepayBillingHandlers(): void {
  invoiceSettled.on(onInvoiceSettled);
}

const onInvoiceSettled: Parameters<typeof invoiceSettled.on>[0] = async (trx, e) => {
  if (e.kind !== "prepayment" || e.balance > 0) return;
  await depositPrepayment(trx, { number: e.invoiceNumber, user_id: e.userId, amount: e.invoiceAmount }, e.actor, e.paymentId);
};
