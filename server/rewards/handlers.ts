// How reward points follow orders' money (issue 25 item 1, ADR 075), registered at start-up by server/event-handlers.ts.
// - billing's `invoiceSettled` (an order's invoice, paid in full: balance <= 0) awards the order's points, in the
//   payment's transaction: the invoice's amount converted to US cents at the invoice's own rate (#common/money
//   convertMinor), times `rewardPointsPerUsd`. Once: 'order-paid:<orderId>' (after a reversal, the next award of the
//   same order is 'order-paid:<orderId>:<n>').
// - billing's `invoiceReopened` (staff refunded and re-opened the invoice) and orders' `orderTransitioned` to
//   'cancelled' take back what the order still holds, once per award ('order-reversed:<orderId>:<n>'). A refund
//   that does not re-open the invoice (a duplicate payment's surplus) keeps the points: the order is still paid.
// - billing's after-commit `billingChanged` drops the user's cached view (its totalRewardPoints and level).
import { sql } from "kysely";
import type { DB } from "../db";
import { USD, convertMinor } from "#common/money";
import { pointsForUsdCents } from "#common/rewards/levels";
import { billingChanged, invoiceReopened, invoiceSettled, usdBaseAtIssue } from "../billing";
import { orderTransitioned } from "../orders/events";
import { invalidateUser } from "../accounts/user-cache";
import { changePoints } from "./points";
import { loyaltySettings } from "./settings";

export function registerRewardsHandlers(): void {
  invoiceSettled.on(onInvoiceSettled);
  invoiceReopened.on(onInvoiceReopened);
  orderTransitioned.on(onOrderTransitioned);
  billingChanged.on(onBillingChanged);
}

/** The invoice's amount in US cents at its own rate (the rate of its issue; today's when none was stored). */
async function invoiceUsdCents(trx: DB, invoiceNumber: string): Promise<number | null> {
  const inv = await trx
    .selectFrom("invoices as i")
    .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
    .select(["i.amount", "i.currency_iso", "c.num_decimals", sql<string | null>`i.exchange_rate::text`.as("rate")])
    .where("i.number", "=", invoiceNumber)
    .executeTakeFirst();
  if (!inv) return null;
  const iso = inv.currency_iso.trim();
  const amount = Number(inv.amount);
  if (inv.rate) return convertMinor(amount, { isoCode: iso, numDecimals: inv.num_decimals, rate: inv.rate }, USD);
  return (await usdBaseAtIssue(trx, iso, amount, null, inv.num_decimals)).usdTotal;
}

/** The order's points history so far: how many awards and reversals, and what it still holds. */
async function orderPoints(trx: DB, orderId: number) {
  const rows = await trx
    .selectFrom("reward_history")
    .select(["name", "points"])
    .where("order_id", "=", orderId)
    .where("name", "in", ["order-paid", "order-reversed"])
    .execute();
  return {
    awards: rows.filter((r) => r.name === "order-paid").length,
    reversals: rows.filter((r) => r.name === "order-reversed").length,
    held: rows.reduce((sum, r) => sum + r.points, 0),
  };
}

const lockUser = (trx: DB, userId: number) =>
  trx.selectFrom("users").select("id").where("id", "=", userId).forNoKeyUpdate().executeTakeFirst();

/** Awards an order's points once it is paid in full (in the payment's transaction). */
export async function awardOrderPoints(trx: DB, userId: number, orderId: number, invoiceNumber: string): Promise<void> {
  // The user's row first: concurrent settlements of one order queue here and each sees what the one before did.
  if (!(await lockUser(trx, userId))) return;
  const order = await trx.selectFrom("orders").select(["status", "user_id"]).where("id", "=", orderId).executeTakeFirst();
  if (!order || order.user_id !== userId || order.status === "cancelled") return;
  const so = await orderPoints(trx, orderId);
  // Held already (a second settlement, a duplicate's surplus): nothing more.
  if (so.held > 0 || so.awards > so.reversals) return;
  const usdCents = await invoiceUsdCents(trx, invoiceNumber);
  if (usdCents === null) return;
  const { pointsPerUsd } = await loyaltySettings(trx);
  const points = pointsForUsdCents(usdCents, pointsPerUsd);
  const sourceKey = so.awards === 0 ? `order-paid:${orderId}` : `order-paid:${orderId}:${so.awards}`;
  await changePoints(trx, { userId, points, name: "order-paid", sourceKey, orderId });
}

/** Takes back what an order still holds (a refund that re-opened its invoice, a cancellation), once per award. */
export async function reverseOrderPoints(trx: DB, userId: number, orderId: number): Promise<void> {
  if (!(await lockUser(trx, userId))) return;
  const so = await orderPoints(trx, orderId);
  if (so.held <= 0) return;
  await changePoints(trx, {
    userId,
    points: -so.held,
    name: "order-reversed",
    sourceKey: `order-reversed:${orderId}:${so.awards}`,
    orderId,
  });
}

const onInvoiceSettled: Parameters<typeof invoiceSettled.on>[0] = async (trx, e) => {
  if (e.kind !== "order" || e.orderId === null || e.balance > 0) return;
  const hasRewards = await trx.selectFrom("users").select("has_rewards").where("id", "=", e.userId).executeTakeFirst();
  if (!hasRewards?.has_rewards) return;
  await awardOrderPoints(trx, e.userId, e.orderId, e.invoiceNumber);
};

const onInvoiceReopened: Parameters<typeof invoiceReopened.on>[0] = async (trx, e) => {
  const order = await trx.selectFrom("orders").select("user_id").where("id", "=", e.orderId).executeTakeFirst();
  if (order) await reverseOrderPoints(trx, order.user_id, e.orderId);
};

const onOrderTransitioned: Parameters<typeof orderTransitioned.on>[0] = async (trx, e) => {
  if (e.to === "cancelled") await reverseOrderPoints(trx, e.userId, e.orderId);
};

const onBillingChanged: Parameters<typeof billingChanged.on>[0] = (app, e) => invalidateUser(app, e.userId);
