// What payments tells the areas above it (issue 21 §1, ADR 056). A prepayment's money settles onto a retainer
// invoice and becomes a prepaid balance: prepay's business, which payments must not import. settle() emits
// `prepaymentSettled` in its transaction (the payment's row locked) and prepay's handler credits the retainer
// invoice there, telling back through `leftOver` what found nothing to pay (it becomes an overpayment credit).
import type { DB } from "../db";
import type { Actor } from "../kernel/actor";
import { defineEvent } from "../kernel/events";

export interface PrepaymentSettled {
  payment: { id: string; amount: number; methodId: number; provider: string; providerRef: string | null; retainerInvoiceNumber: string };
  actor: Actor;
  /** The handler says what of the payment's amount found nothing owed (minor units of the payment's currency). */
  leftOver(amount: number): void;
}
export const prepaymentSettled = defineEvent<DB, PrepaymentSettled>("prepayment-settled");
