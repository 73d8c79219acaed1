// What billing tells the areas above it (issue 21 §1, ADR 056). Billing owns invoices and their ledger; the order
// an invoice bills belongs to orders, which reacts through handlers it registers at start-up
// (server/event-handlers.ts). Billing imports no orders code: it emits these and goes on.
import type { AppContext } from "../../context";
import type { DB } from "../../db";
import type { Actor } from "../../kernel/actor";
import { defineEvent } from "../../kernel/events";

/** Money was put on an invoice (`balance` is what is left: 0 when the invoice is settled). In its transaction. */
export interface InvoiceCredited {
  invoiceNumber: string;
  orderId: number;
  /** The order's status when the invoice was locked (the history row records no change of it). */
  orderStatus: string;
  amount: number;
  currencyIso: string;
  reference: string;
  receivedOn: string;
  balance: number;
  actor: Actor;
}
export const invoiceCredited = defineEvent<DB, InvoiceCredited>("invoice-credited");

/** Staff refunded and chose to re-open a settled invoice: `amount` is owed again. In its transaction. */
export interface InvoiceReopened {
  invoiceNumber: string;
  orderId: number;
  amount: number;
  actor: Actor;
}
export const invoiceReopened = defineEvent<DB, InvoiceReopened>("invoice-reopened");

/** An invoice was marked for write-off, or written off. In its transaction. */
export interface InvoiceWriteOff {
  step: "invoice-writeoff-pending" | "invoice-written-off";
  invoiceNumber: string;
  orderId: number;
  orderStatus: string;
  note: string | null;
  data: Record<string, unknown>;
  actor: Actor;
}
export const invoiceWriteOff = defineEvent<DB, InvoiceWriteOff>("invoice-writeoff");

/** A researcher's invoices, balances or payments changed (committed): their cached views are stale. */
export const billingChanged = defineEvent<AppContext, { userId: number }>("billing-changed");
