// How an order follows its invoice (issue 21 §1, ADR 056). Billing emits events and imports nothing of orders;
// these handlers, registered at start-up by server/event-handlers.ts, do what billing did to orders before:
// the order paid once its invoice is settled and unpaid again when staff re-open it, the "payment recorded" and
// write-off lines of its history, the researcher's mail (a job enqueued in the same transaction) and, after the
// commit, the researcher's cached views refreshed. Each runs in the emitter's transaction, so an order is paid
// exactly when its invoice is and a rolled-back payment leaves neither.
import type { OrderStatus } from "#common/orders/status";
import { billingChanged, invoiceReopened, invoiceSettled, invoiceWriteOff } from "../billing/invoices/events";
import { afterOrderChange, orderNotificationJob, recordHistory } from "./life";

export function registerOrderBillingHandlers(): void {
  invoiceSettled.on(onInvoiceSettled);
  invoiceReopened.on(onInvoiceReopened);
  invoiceWriteOff.on(onInvoiceWriteOff);
  billingChanged.on(onBillingChanged);
}

const onInvoiceSettled: Parameters<typeof invoiceSettled.on>[0] = async (trx, e) => {
  // An invoice of another kind (a prepayment) bills no order (ADR 058).
  if (e.kind !== "order" || e.orderId === null) return;
  if (e.balance <= 0)
    await trx
      .updateTable("orders")
      .set((eb) => ({ paid: true, updated_at: new Date(), version: eb("version", "+", 1) }))
      .where("id", "=", e.orderId)
      .execute();
  const status = (e.orderStatus ?? "") as OrderStatus;
  const historyId = await recordHistory(trx, e.orderId, "payment-recorded", status, status, e.actor, {
    data: {
      invoiceNumber: e.invoiceNumber,
      amount: e.amount,
      currencyIso: e.currencyIso,
      reference: e.reference,
      receivedOn: e.receivedOn,
      balance: e.balance,
    },
  });
  await orderNotificationJob.enqueue(trx, { historyId });
};

const onInvoiceReopened: Parameters<typeof invoiceReopened.on>[0] = async (trx, e) => {
  await trx
    .updateTable("orders")
    .set((eb) => ({ paid: false, updated_at: new Date(), version: eb("version", "+", 1) }))
    .where("id", "=", e.orderId)
    .execute();
};

const onInvoiceWriteOff: Parameters<typeof invoiceWriteOff.on>[0] = async (trx, e) => {
  const status = e.orderStatus as OrderStatus;
  await recordHistory(trx, e.orderId, e.step, status, status, e.actor, { note: e.note, data: e.data });
};

const onBillingChanged: Parameters<typeof billingChanged.on>[0] = (app, e) => afterOrderChange(app, e.userId);
