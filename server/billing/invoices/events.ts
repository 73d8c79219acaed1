// What billing tells the areas above it (issue 21 §1, ADR 056, ADR 058). Billing owns invoices of every kind and
// their ledger; the order an invoice bills belongs to orders, a prepayment's balance to prepay, and each reacts
// through handlers it registers at start-up (server/event-handlers.ts). Billing imports neither: it emits these
// and goes on.
import type { AppContext } from "../../context";
import type { DB } from "../../db";
import type { Actor } from "../../kernel/actor";
import { defineEvent } from "../../kernel/events";
import type { InvoiceKind } from "../../../db/types-orders";

/**
 * "Invoice settled" (ADR 058): money was put on an invoice of any kind — a provider's payment, a bank transfer, a
 * balance spend — and `balance` is what is left (0: settled in full). In its transaction. Each area reacts to its
 * kind: orders to `order` (the order paid, its history, the mail), prepay to `prepayment` (once settled in full,
 * the prepaid balance's deposit).
 */
export interface InvoiceSettled {
  kind: InvoiceKind;
  invoiceNumber: string;
  userId: number;
  /** The order it bills (kind `order`); null for a prepayment. */
  orderId: number | null;
  /** The order's status when the invoice was locked (the history row records no change of it); null without one. */
  orderStatus: string | null;
  /** The invoice's total (minor units): what a settled prepayment deposits. */
  invoiceAmount: number;
  amount: number;
  currencyIso: string;
  reference: string;
  receivedOn: string;
  balance: number;
  /** The provider payment the money came from (null: a transfer staff recorded, a balance spend). */
  paymentId: string | null;
  actor: Actor;
}
export const invoiceSettled = defineEvent<DB, InvoiceSettled>("invoice-settled");

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
