// Giving money back through the provider (ADR 051): the one call that asks a provider for a refund and records
// its answer as a payment event, shared by staff refunds (refund.ts) and by undoing a charge whose order could
// not be placed (charge.ts). A provider that throws is a failed refund, never an exception for the caller.
import type { DB } from "../db";
import type { PaymentProvider } from "./providers/types";
import { recordEvent } from "./record-event";

/**
 * Asks the provider to give back `amount` of a payment and records the answer as a `refund` event (with `data`,
 * and who asked); a provider that throws is a failed refund. The one way money goes back (staff refunds, undo).
 */
export async function refundAtProvider(
  db: DB,
  provider: PaymentProvider,
  payment: { id: string; providerRef: string; amount: number; currencyIso: string },
  amount: number,
  data: Record<string, unknown>,
  actorUserId: number | null = null,
): Promise<{ ok: true; refundRef: string } | { ok: false; error: string }> {
  const refund = await provider
    .refund({ id: payment.id, providerRef: payment.providerRef, amount: payment.amount, currencyIso: payment.currencyIso }, amount)
    .catch((e: unknown) => ({ ok: false as const, error: String(e) }));
  await recordEvent(
    db,
    payment.id,
    provider.id,
    "refund",
    null,
    true,
    refund.ok ? "refunded" : "failed",
    { ...data, ...(refund.ok ? { refundRef: refund.refundRef } : { error: refund.error }) },
    actorUserId,
  );
  return refund;
}
