// Payment-method rules (spec 1 §6, spec 3 §9): which methods an order may be paid with now, and which of
// them leave an invoice to pay. Today: bank transfer (an unpaid invoice) and free when nothing is due; the
// other methods of PAYMENT_METHOD arrive with the payments area.
import { PAYMENT_METHOD } from "#common/order-form/constants";

export { PAYMENT_METHOD };

export type PaymentMethodId = (typeof PAYMENT_METHOD)[keyof typeof PAYMENT_METHOD];

/**
 * Methods offered for an order of this goal and total: free when nothing is due, else bank transfer.
 * An order staff create for a researcher (`adminCreated`, spec 2 §6) may always be billed by bank transfer,
 * multimedia included: the wider set of the spec is, of the methods the portal has today, bank transfer (ADR 030).
 */
export function availablePaymentMethods(
  order: { customer_goal: string | null },
  total: number,
  impersonating: boolean,
  options: { adminCreated?: boolean } = {},
): number[] {
  if (total === 0) return [PAYMENT_METHOD.free];
  if (options.adminCreated) return [PAYMENT_METHOD.bankTransfer];
  // Bank transfer for multimedia-services orders only when staff act for the user.
  if (order.customer_goal === "multimedia" && !impersonating) return [];
  return [PAYMENT_METHOD.bankTransfer];
}

/** Whether an order paid with this method is billed by an invoice (paid later, against its number). */
export function billedByInvoice(paymentMethodId: number): boolean {
  return paymentMethodId === PAYMENT_METHOD.bankTransfer;
}
