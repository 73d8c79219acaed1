// A parsed payment form (app/common/payments/types.ts) for tests that call the payments service directly.
import type { PaymentSubmission } from "#common/payments/types";
import type { AppContext } from "../../server/context";
import { applyProviderEvent } from "../../server/payments";

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
  fapiao: null,
  ...over,
});

/**
 * The payer approves every PayPal order of theirs still open at the provider (their other tabs): each is captured
 * through the sandbox's return, as the provider's page would.
 */
export async function captureOpenPaypalOrders(ctx: AppContext, userId: number): Promise<void> {
  const open = await ctx.db
    .selectFrom("payments")
    .select(["id", "provider_ref", "amount", "currency_iso"])
    .where("user_id", "=", userId)
    .where("provider", "=", "paypal")
    .where("status", "=", "pending")
    .execute();
  for (const p of open)
    await applyProviderEvent(
      ctx,
      "paypal",
      {
        eventId: `cap-${p.id}`,
        reference: p.id,
        providerRef: p.provider_ref!,
        outcome: "succeeded",
        amount: Number(p.amount),
        currencyIso: p.currency_iso.trim(),
      },
      "return",
    );
}
