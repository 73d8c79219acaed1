// Recovery of payment attempts nobody is finishing (issue 21 §3, ADR 051). A `processing` attempt whose lease
// lapsed (the process charging it died: its renewals stopped) and a `pending` attempt past its expected time are
// asked about at their provider, and settled or failed exactly once:
// - the provider took the money → settled like any confirmation (the invoices are paid, or a surplus becomes the
//   researcher's overpayment credit); the payment's row lock and the event's id make it once;
// - the provider never charged (no such transaction) → failed, its held balances released: payable again;
// - the provider still waits (a boleto before its due date, a PayPal order not yet approved) → left, unless
//   it is past its expected time: then it is cancelled (a PayPal order, a QR code) — a boleto is never cancelled
//   while a bank may still accept it (BOLETO_GRACE_DAYS after its due date);
// - the provider cannot be asked (no lookup): a `processing` attempt is left for staff, logged (money may have
//   been taken); a `pending` one past its time is treated as still waiting (cancelled, a boleto after its grace).
// Each attempt is claimed with a short lease first, so two workers never recover the same one at once.
import { isProviderId } from "./providers";
import type { AppContext } from "../context";
import { getProvider } from "./providers";
import { leaseUntil } from "./attempts";
import { releaseReservations } from "./reserve";
import { applyProviderEvent } from "./confirm";
import { SYSTEM_ACTOR } from "../kernel/actor";
import type { NextAction } from "./providers/types";

/** How long a pending attempt may wait for its payer before the recovery job asks (and may cancel it). */
export const PENDING_EXPECTED_MINUTES = 180;
/** A boleto may be paid at a bank a few working days after its due date. */
export const BOLETO_GRACE_DAYS = 5;
const BATCH = 50;

export interface RecoveryReport {
  settled: number;
  failed: number;
  cancelled: number;
  left: number;
}

/** One pass over the attempts due a look (the recovery job's handler). */
export async function recoverPayments(app: AppContext, now = new Date()): Promise<RecoveryReport> {
  const report: RecoveryReport = { settled: 0, failed: 0, cancelled: 0, left: 0 };
  const pendingBefore = new Date(now.getTime() - PENDING_EXPECTED_MINUTES * 60_000);
  const due = await app.db
    .selectFrom("payments")
    .select(["id"])
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "processing"), eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)])]),
        eb.and([
          eb("status", "=", "pending"),
          eb("updated_at", "<", pendingBefore),
          eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]),
        ]),
      ]),
    )
    .orderBy("created_at")
    .limit(BATCH)
    .execute();
  for (const { id } of due) {
    const outcome = await recoverOne(app, id, now);
    report[outcome]++;
  }
  return report;
}

async function recoverOne(app: AppContext, id: string, now: Date): Promise<keyof RecoveryReport> {
  // Claim it (one worker wins); a processing attempt's claim lapses like any lease if this worker dies too.
  const claimed = await app.db
    .updateTable("payments")
    .set({ lease_until: leaseUntil(now.getTime()) })
    .where("id", "=", id)
    .where("status", "in", ["processing", "pending"])
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
    .returning(["id", "status", "provider", "provider_ref", "amount", "currency_iso", "next_action"])
    .executeTakeFirst();
  if (!claimed) return "left";
  const payment = {
    id: claimed.id,
    providerRef: claimed.provider_ref,
    amount: Number(claimed.amount),
    currencyIso: claimed.currency_iso.trim(),
  };
  const provider = isProviderId(claimed.provider) ? getProvider(app, claimed.provider) : null;
  const asked = provider?.lookup ? await provider.lookup(payment).catch(() => null) : null;
  // A pending attempt past its time whose provider cannot be asked (no lookup yet: Alipay, WeChat Pay, UnionPay,
  // Allpago, boleto) would otherwise block its invoice for ever ("one open attempt"): its code or session expired
  // long ago, so it is treated as still waiting — cancelled below, a boleto only after its grace days. Money that
  // arrives later anyway is a late capture: settled, or the researcher's overpayment credit (ADR 051).
  const answer = asked ?? (provider && claimed.status === "pending" ? ({ state: "pending" } as const) : null);
  if (!provider || !answer) {
    app.logger.warn({ paymentId: id, provider: claimed.provider }, "payment recovery: the provider cannot be asked; left for staff");
    return "left";
  }
  if (answer.state === "settled") {
    const r = await applyProviderEvent(app, provider.id, answer.event, "notification");
    if (!r.ok) return "left";
    return answer.event.outcome === "succeeded" ? "settled" : "cancelled";
  }
  const next = claimed.next_action as NextAction | null;
  const waiting = answer.state === "pending" && claimed.status === "pending";
  if (waiting && next?.kind === "boleto" && new Date(`${next.dueOn}T23:59:59Z`).getTime() + BOLETO_GRACE_DAYS * 86_400_000 > now.getTime())
    return "left";
  // Never charged (or waited past its time for a payer who did not come): the attempt ends, the invoice is payable.
  const status = answer.state === "not-found" && claimed.status === "processing" ? "failed" : "cancelled";
  const ended = await app.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("payments")
      .set({
        status,
        error: answer.state === "not-found" ? "not-charged" : "expired",
        next_action: null,
        lease_until: null,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("status", "in", ["processing", "pending"])
      .returning("id")
      .executeTakeFirst();
    if (row) await releaseReservations(trx, { paymentId: id }, SYSTEM_ACTOR);
    return Boolean(row);
  });
  if (ended)
    await app.db
      .insertInto("payment_events")
      .values({
        payment_id: id,
        provider: provider.id,
        kind: "recovery",
        verified: true,
        outcome: status,
        data: JSON.stringify({ lookup: answer.state }),
      })
      .execute();
  return !ended ? "left" : status === "failed" ? "failed" : "cancelled";
}
