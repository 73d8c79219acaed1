// How a digital purchase follows its invoice (issue 24 item 2, ADR 073): an invoice of kind 'digital' that billing
// credits like any other; once it is settled in full, this handler (registered at start-up by
// server/event-handlers.ts) activates its purchase in the transaction that settled it — once: only a pending
// purchase becomes active, valid from now for its months.
import { sql } from "kysely";
import { invoiceSettled } from "../billing";

export function registerDigitalBillingHandlers(): void {
  invoiceSettled.on(onInvoiceSettled);
}

const onInvoiceSettled: Parameters<typeof invoiceSettled.on>[0] = async (trx, e) => {
  if (e.kind !== "digital" || e.balance > 0) return;
  await trx
    .updateTable("digital_purchases")
    .set({
      status: "active",
      starts_at: sql<Date>`now()`,
      ends_at: sql<Date>`now() + make_interval(months => months)`,
      activated_at: sql<Date>`now()`,
    })
    .where("invoice_number", "=", e.invoiceNumber)
    .where("status", "=", "pending")
    .execute();
};
