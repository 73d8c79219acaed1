// The payment events log (issue 12, ADR 034): every provider call, notification, return and refund is a
// payment_events row. A provider's event id is recorded once (unique per provider), which is what makes a
// replayed notification change nothing: the caller acts only when the row is new.
import type { DB } from "../db";

export async function recordEvent(
  db: DB,
  paymentId: string | null,
  provider: string,
  kind: string,
  eventId: string | null,
  verified: boolean,
  outcome: string,
  data: Record<string, unknown>,
  actorUserId: number | null = null,
): Promise<boolean> {
  const row = await db
    .insertInto("payment_events")
    .values({
      payment_id: paymentId,
      provider,
      kind,
      event_id: eventId,
      verified,
      outcome,
      data: JSON.stringify(data),
      actor_user_id: actorUserId,
    })
    .onConflict((oc) => oc.columns(["provider", "event_id"]).where("event_id", "is not", null).doNothing())
    .returning("id")
    .executeTakeFirst();
  return Boolean(row);
}
