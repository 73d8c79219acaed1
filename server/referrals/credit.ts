// The referrer's reward (issue 25 item 3): `referralAmount` USD as credits in the referrer's currency and
// `referralPoints` reward points, when the referred colleague's first order is paid in full AND completed. Whichever
// of billing's invoiceSettled and orders' orderTransitioned comes second triggers it, in its transaction, once: the
// referral row is locked and moved from pending to credited (or refused) by a conditional UPDATE, so a repeated or
// concurrent event finds nothing pending. Refused when the two accounts look like one person: a shared payment
// instrument or billing address (an e-mail domain in common is allowed: colleagues of one university).
import { sql } from "kysely";
import type { DB } from "../db";
import type { InvoiceSettled } from "../billing";
import { grantCredit } from "../billing";
import type { OrderTransitioned } from "../orders/events";
import { paymentAddressesOf, paymentInstrumentsOf } from "../payments";
import { changePoints } from "../rewards";
import { currencyDecimals, latestExchangeRate } from "../kernel/reference";
import { convertMinor } from "#common/money";
import { referralAmountUsdCents } from "./register";
import { samePersonReason, type AddressLike } from "./rules";
import { referralSettings } from "./settings";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function onInvoiceSettledForReferral(trx: DB, e: InvoiceSettled): Promise<void> {
  if (e.kind !== "order" || e.balance > 0 || e.orderId === null) return;
  const order = await trx.selectFrom("orders").select(["status", "user_id"]).where("id", "=", e.orderId).executeTakeFirst();
  if (order?.status !== "completed") return;
  await creditReferral(trx, order.user_id, e.orderId);
}

export async function onOrderTransitionedForReferral(trx: DB, e: OrderTransitioned): Promise<void> {
  if (e.to !== "completed") return;
  const order = await trx.selectFrom("orders").select("paid").where("id", "=", e.orderId).executeTakeFirst();
  if (!order?.paid) return;
  await creditReferral(trx, e.userId, e.orderId);
}

async function identityOf(trx: DB, userId: number): Promise<{ instruments: string[]; addresses: AddressLike[] }> {
  const [instruments, paid, saved] = await Promise.all([
    paymentInstrumentsOf(trx, userId),
    paymentAddressesOf(trx, userId),
    trx.selectFrom("addresses").select(["address1", "address2", "city", "zip", "country_id"]).where("user_id", "=", userId).execute(),
  ]);
  return { instruments, addresses: [...paid, ...saved] };
}

export type CreditOutcome =
  { status: "credited"; referralId: number; amount: number; currencyIso: string } | { status: "refused"; reason: string } | null;

/** Credits (or refuses) the pending referral of `referredUserId` for its paid and completed order; null when none is pending. */
export async function creditReferral(trx: DB, referredUserId: number, orderId: number): Promise<CreditOutcome> {
  // Locked: a concurrent event for the same colleague waits here, then finds it no longer pending.
  const referral = await trx
    .selectFrom("referrals")
    .select(["id", "referrer_user_id"])
    .where("referred_user_id", "=", referredUserId)
    .where("status", "=", "pending")
    .forUpdate()
    .executeTakeFirst();
  if (!referral) return null;
  const [referrer, referred] = await Promise.all([identityOf(trx, referral.referrer_user_id), identityOf(trx, referredUserId)]);
  const reason = samePersonReason(referrer, referred);
  if (reason) {
    await trx
      .updateTable("referrals")
      .set({ status: "refused", refused_reason: reason, order_id: orderId })
      .where("id", "=", referral.id)
      .where("status", "=", "pending")
      .execute();
    return { status: "refused", reason };
  }
  const settings = await referralSettings(trx);
  const user = await trx.selectFrom("users").select("currency_iso").where("id", "=", referral.referrer_user_id).executeTakeFirstOrThrow();
  const currencyIso = user.currency_iso.trim();
  const usdCents = referralAmountUsdCents(settings.amount);
  const [rate, digits] = await Promise.all([latestExchangeRate(trx, currencyIso), currencyDecimals(trx, currencyIso)]);
  const amount =
    usdCents && rate && digits !== null
      ? convertMinor(usdCents, { isoCode: "USD", numDecimals: 2, rate: "1" }, { isoCode: currencyIso, numDecimals: digits, rate })
      : 0;
  const moved = await trx
    .updateTable("referrals")
    .set({
      status: "credited",
      order_id: orderId,
      credit_amount: amount > 0 ? amount : null,
      credit_currency: amount > 0 ? currencyIso : null,
      credited_at: sql<Date>`now()`,
    })
    .where("id", "=", referral.id)
    .where("status", "=", "pending")
    .returning("id")
    .executeTakeFirst();
  if (!moved) return null;
  if (amount > 0)
    await grantCredit(trx, {
      userId: referral.referrer_user_id,
      currencyIso,
      amount,
      kind: "referral",
      note: `referral:${referral.id}`,
      expiresAt: new Date(Date.now() + settings.creditDays * DAY_MS),
    });
  if (settings.points > 0)
    await changePoints(trx, {
      userId: referral.referrer_user_id,
      points: settings.points,
      name: "referral",
      sourceKey: `referral:${referral.id}`,
    });
  return { status: "credited", referralId: referral.id, amount, currencyIso };
}
