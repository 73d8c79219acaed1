// A parsed payment form (app/common/payments/types.ts) for tests that call the payments service directly.
import type { PaymentSubmission } from "#common/payments/types";

export const paymentSubmission = (paymentMethodId: number, over: Partial<PaymentSubmission> = {}): PaymentSubmission => ({
  paymentMethodId,
  acceptTerms: true,
  purchaseOrder: null,
  nonce: null,
  installments: null,
  checkoutId: null,
  brazilChoice: null,
  fapespProcessNumber: null,
  grantNumber: null,
  currencyIso: null,
  address: null,
  invoiceAddressSameAsBilling: true,
  invoiceAddress: null,
  taxId: null,
  useCredits: false,
  prepayOption: "none",
  prepayAmount: null,
  requireFapiao: false,
  ...over,
});
