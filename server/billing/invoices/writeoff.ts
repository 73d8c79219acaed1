// Writing an invoice off (issue 12 §8, spec 2 §3 "pendingWriteoff"): staff either mark it for write-off (it
// leaves the researcher's unpaid view: spec 2 §5 "balance above 0 and not pendingWriteoff") or close what is
// left now: a ledger row of kind 'writeoff' for the remaining balance, the balance 0, the invoice
// 'written-off', a line in the order's history. Idempotent: the invoice row is locked, a written-off invoice
// answers its first write-off again, and the ledger's unique (invoice, reference) holds one write-off row.
// The order is not marked paid: no money came (staff release its files with the download override if they want).
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import type { AppContext } from "../../context";
import type { Actor } from "../../kernel/actor";
import { billingChanged, invoiceWriteOff } from "./events";
import { lockInvoice } from "./payments";

/** The ledger reference of the one write-off row of an invoice. */
export const WRITEOFF_REFERENCE = "writeoff";
/** No payment method carried it: a write-off moves no money. */
export const WRITEOFF_METHOD_ID = 0;

export interface WriteoffResult {
  invoiceNumber: string;
  /** Minor units written off (0 when only marked pending). */
  amount: number;
  currencyIso: string;
  balance: number;
  status: string;
  pendingWriteoff: boolean;
  /** Nothing changed: it was already marked, or already written off. */
  already: boolean;
}

/**
 * `mode` "pending" sets pending_writeoff; "now" writes off the rest. Errors: `not-found`, `invoice-void` (409),
 * `invoice-paid` (409, nothing is owed).
 */
export async function writeOffInvoice(
  app: AppContext,
  actor: Actor,
  invoiceNumber: string,
  mode: "pending" | "now",
  note: string | null = null,
): Promise<Result<WriteoffResult>> {
  const r = await app.db.transaction().execute(async (trx): Promise<Result<WriteoffResult & { userId: number }>> => {
    const invoice = await lockInvoice(trx, invoiceNumber);
    // Staff write off what an order's invoice still owes; a prepayment owes nothing until paid (ADR 058).
    if (!invoice || invoice.kind !== "order" || invoice.order_id === null) return fail("not-found");
    const orderId = invoice.order_id;
    const currencyIso = invoice.currency_iso.trim();
    const base = { invoiceNumber, currencyIso, userId: invoice.user_id };
    if (invoice.status === "written-off") {
      const row = await trx
        .selectFrom("invoice_payments")
        .select("amount")
        .where("invoice_number", "=", invoiceNumber)
        .where("kind", "=", "writeoff")
        .executeTakeFirst();
      return ok({ ...base, amount: Number(row?.amount ?? 0), balance: 0, status: invoice.status, pendingWriteoff: false, already: true });
    }
    if (invoice.status === "void") return fail("invoice-void");
    const balance = Number(invoice.balance);
    if (balance <= 0) return fail("invoice-paid");
    const status = invoice.order_status ?? "";
    if (mode === "pending") {
      if (invoice.pending_writeoff)
        return ok({ ...base, amount: 0, balance, status: invoice.status, pendingWriteoff: true, already: true });
      await trx.updateTable("invoices").set({ pending_writeoff: true }).where("number", "=", invoiceNumber).execute();
      await invoiceWriteOff.emit(trx, {
        step: "invoice-writeoff-pending",
        invoiceNumber,
        orderId,
        orderStatus: status,
        actor,
        note,
        data: { invoiceNumber, balance, currencyIso },
      });
      return ok({ ...base, amount: 0, balance, status: invoice.status, pendingWriteoff: true, already: false });
    }
    await trx
      .insertInto("invoice_payments")
      .values({
        invoice_number: invoiceNumber,
        amount: balance,
        currency_iso: currencyIso,
        payment_method_id: WRITEOFF_METHOD_ID,
        reference: WRITEOFF_REFERENCE,
        received_on: sql<string>`current_date`,
        recorded_by: actor.userId,
        kind: "writeoff",
      })
      .execute();
    await trx
      .updateTable("invoices")
      .set({ balance: 0, status: "written-off", pending_writeoff: false, written_off_at: new Date() })
      .where("number", "=", invoiceNumber)
      .execute();
    await invoiceWriteOff.emit(trx, {
      step: "invoice-written-off",
      invoiceNumber,
      orderId,
      orderStatus: status,
      actor,
      note,
      data: { invoiceNumber, amount: balance, currencyIso },
    });
    return ok({ ...base, amount: balance, balance: 0, status: "written-off", pendingWriteoff: false, already: false });
  });
  if (!r.ok) return r;
  const { userId, ...result } = r.value;
  // The researcher's cached view (unpaid invoices) changed.
  if (!result.already) await billingChanged.emit(app, { userId });
  return ok(result);
}
