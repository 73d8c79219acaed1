// A provider's word about a payment (issue 12, ADR 034): a signed notification, the payer's return or the
// recovery job's lookup. It exists to be the gate: the event is acted on only when it is about this payment (our
// reference, the provider's, the amount and the currency all match) and only once (its event id recorded); a
// success settles (settle.ts), a failure or cancellation ends the attempt and releases its held balances.
import { fail, ok, type Result } from "#common/result";
import type { ProviderId } from "#common/payments/methods";
import type { AppContext } from "../context";
import { releaseReservations } from "./reserve";
import type { ProviderEvent } from "./providers/types";
import { SYSTEM_ACTOR } from "../kernel/actor";
import { type PaymentRow, type Row, readPayment, toPayment } from "./read";
import { recordEvent } from "./record-event";
import { instrumentOf } from "./instruments";
import { settle } from "./settle";

/**
 * A provider's verified word about a payment (a signed notification, or its answer when the payer returned).
 * Acted on only when it is about this payment: our reference, the provider's own reference once known, the
 * amount and the currency must all match; anything else is recorded as rejected and changes nothing. Each
 * event is acted on once: a replayed notification finds its (provider, event id) recorded.
 */
export async function applyProviderEvent(
  app: AppContext,
  provider: ProviderId,
  event: ProviderEvent,
  kind: "return" | "notification",
): Promise<Result<{ payment: PaymentRow; changed: boolean }>> {
  const payment = await readPayment(app.db, event.reference);
  const reject = async (reason: string) => {
    await recordEvent(app.db, payment?.id ?? null, provider, "rejected", null, false, reason, {
      claimed: { ...event, data: undefined },
      kind,
    });
    app.logger.warn({ provider, reference: event.reference, reason }, "payment event rejected");
    return fail(reason === "unknown-payment" ? "not-found" : "payment-event-mismatch");
  };
  if (!payment || payment.provider !== provider) return reject("unknown-payment");
  if (payment.providerRef && event.providerRef !== payment.providerRef) return reject("provider-reference-mismatch");
  if (event.amount !== payment.amount || event.currencyIso.trim().toUpperCase() !== payment.currencyIso) return reject("amount-mismatch");
  const fresh = await recordEvent(app.db, payment.id, provider, kind, event.eventId, true, event.outcome, {
    providerRef: event.providerRef,
    error: event.error ?? null,
    ...(event.data ?? {}),
    ...instrumentOf(provider, event.data),
  });
  if (!fresh) return ok({ payment, changed: false });
  if (event.outcome === "succeeded") return ok(await settle(app, payment.id, SYSTEM_ACTOR));
  if ((event.outcome === "failed" || event.outcome === "cancelled") && (payment.status === "pending" || payment.status === "processing")) {
    const outcome = event.outcome;
    const row = await app.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("payments")
        .set({ status: outcome, error: event.error ?? outcome, next_action: null, lease_until: null, updated_at: new Date() })
        .where("id", "=", payment.id)
        .where("status", "in", ["pending", "processing"])
        .returningAll()
        .executeTakeFirst();
      if (updated) await releaseReservations(trx, { paymentId: payment.id }, SYSTEM_ACTOR);
      return updated;
    });
    return ok({ payment: row ? toPayment(row as unknown as Row) : payment, changed: Boolean(row) });
  }
  return ok({ payment, changed: false });
}
