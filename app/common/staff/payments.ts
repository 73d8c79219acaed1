// The staff payments console (issue 12 §8): search of payments, a payment's refund, an invoice's write-off and
// the voucher list. Lenient about values like the orders console: the domain functions check them and answer
// translated field errors (`staffpay:errors.*`).
import * as z from "zod/mini";

const text = (max: number) => z.optional(z.string().check(z.maxLength(max)));

export const STAFF_PAYMENT_PAGE_SIZE = 30;
export const PAYMENT_STATUSES = ["processing", "pending", "succeeded", "failed", "cancelled", "refunded"] as const;
export type PaymentStatusCode = (typeof PAYMENT_STATUSES)[number];

/** GET /staff/payments: every filter optional. */
export const staffPaymentSearchSchema = z.object({
  email: text(254),
  order: text(40),
  invoice: text(40),
  status: text(20),
  method: text(4),
  page: text(6),
});
export type StaffPaymentSearch = z.output<typeof staffPaymentSearchSchema>;

/** POST /staff/payments/{id}: a refund of at most what was paid and not yet refunded. */
export const refundSchema = z.object({
  intent: z.literal("refund"),
  amount: z.catch(z.string().check(z.maxLength(20)), ""),
  reason: z.catch(z.string().check(z.maxLength(500)), ""),
  /** "Re-open the invoice" (ADR 051): unchecked (absent) by default, so a refund never re-opens a settled invoice. */
  reopen: z.optional(z.catch(z.string().check(z.maxLength(10)), "")),
});
export type RefundForm = z.output<typeof refundSchema>;

/** POST /staff/invoices/{number}: mark for write-off, or write the rest off now. */
export const writeoffSchema = z.object({
  intent: z.enum(["pending-writeoff", "writeoff"]),
  note: z.catch(z.string().check(z.maxLength(500)), ""),
});
export type WriteoffForm = z.output<typeof writeoffSchema>;

/** Codes the payments console explains itself (`staffpay:errors.*`); any other is a generic failure. */
export const STAFFPAY_ERRORS = [
  "not-found",
  "not-allowed",
  "not-refundable",
  "refund-failed",
  "invalid-amount",
  "invoice-void",
  "invoice-paid",
  "bad-form",
] as const;

export function staffPayErrorKey(code: string): string {
  return (STAFFPAY_ERRORS as readonly string[]).includes(code) ? `staffpay:errors.${code}` : "staffpay:errors.failed";
}

/** The payment method ids the console names (staffpay:methods.<id>). */
export const STAFF_METHOD_IDS = [1, 3, 4, 6, 9, 19, 20, 21, 22, 23, 25, 26, 27, 28] as const;
