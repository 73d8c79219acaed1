// Which payment instrument paid (issue 25 item 3): the identity a provider gives of a card or a payer, recorded
// in the payment's events as `instrument`, and the billing addresses a researcher paid with. The referrals area
// refuses a referral between two accounts that share either (the same person twice), never reading providers' data
// itself.
import { sql } from "kysely";
import type { DB } from "../db";

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** `{ instrument }` for a provider's answer that names one (Braintree's uniqueNumberIdentifier, PayPal's payer id, Allpago's brand and last 4); `{}` otherwise. */
export function instrumentOf(provider: string, data: Record<string, unknown> | undefined): { instrument?: string } {
  if (!data) return {};
  const id =
    provider === "card"
      ? text(data.uniqueNumberIdentifier)
      : provider === "paypal"
        ? text(data.payerId)
        : text(data.last4) && text(data.brand ?? data.paymentBrand)
          ? `${text(data.brand ?? data.paymentBrand)}:${text(data.last4)}`
          : null;
  return id ? { instrument: `${provider}:${id}` } : {};
}

/** The instruments of a user's succeeded payments (events recorded as `instrument`). */
export async function paymentInstrumentsOf(db: DB, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("payment_events as e")
    .innerJoin("payments as p", "p.id", "e.payment_id")
    .select(sql<string>`e.data->>'instrument'`.as("instrument"))
    .where("p.user_id", "=", userId)
    .where("p.status", "in", ["succeeded", "refunded"])
    .where(sql<boolean>`e.data ? 'instrument'`)
    .distinct()
    .execute();
  return rows.map((r) => r.instrument).filter(Boolean);
}

/** The billing addresses a user's succeeded payments were made with (payments.details.billing), as stored. */
export async function paymentAddressesOf(db: DB, userId: number): Promise<Record<string, unknown>[]> {
  const rows = await db
    .selectFrom("payments")
    .select(sql<Record<string, unknown> | null>`details->'billing'`.as("billing"))
    .where("user_id", "=", userId)
    .where("status", "in", ["succeeded", "refunded"])
    .execute();
  return rows.flatMap((r) => (r.billing && typeof r.billing === "object" ? [r.billing] : []));
}
