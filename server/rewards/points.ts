// Reward points (issue 25 §1, spec 3 §3 "Loyalty"): every change of a user's points is one reward_history row
// (name, points, pointsToDate) written in the caller's transaction, and users.reward_points is the latest
// pointsToDate. `source_key` makes each award or reversal happen once however often its event is delivered
// (a job's retry, two tabs, a webhook and a return page settling the same invoice).
import type { DB } from "../db";
import { applyLevel } from "./levels";

export interface PointsChange {
  userId: number;
  /** Signed: an award is positive, a reversal negative (never below a total of 0). */
  points: number;
  /** The history row's name: the last part of a translation key ('order-paid', 'order-reversed', 'referral'…). */
  name: string;
  /** What the change is for, once: 'order-paid:<orderId>', 'order-reversed:<orderId>'… */
  sourceKey: string;
  orderId?: number | null;
}

export interface PointsChanged {
  /** The points actually added (negative: taken); a reversal is clamped to what the user has. */
  points: number;
  total: number;
  /** The user's loyalty level after the change (ADR 075: it follows the points both ways; benefits granted stay). */
  level: string;
}

/**
 * Applies a change of points once, in the caller's transaction. Null when the source was applied already (or the
 * user is gone). The user's row is locked first, so concurrent changes of one user queue and each reads the total
 * the one before it left. Every change then sets the user's loyalty level and grants the benefits of a level reached
 * for the first time (./levels.ts), whoever calls it (orders paid, reversals, a credited referral).
 */
export async function changePoints(trx: DB, c: PointsChange): Promise<PointsChanged | null> {
  if (!Number.isSafeInteger(c.points) || c.points === 0) return null;
  // FOR NO KEY UPDATE, not FOR UPDATE: a payment's transaction has inserted rows that reference the user (their key
  // checks hold KEY SHARE on this row), and FOR UPDATE waits on those — two payments of one researcher deadlocked on
  // PostgreSQL (session 14). NO KEY UPDATE still queues the changes of one user's points.
  const user = await trx.selectFrom("users").select("reward_points").where("id", "=", c.userId).forNoKeyUpdate().executeTakeFirst();
  if (!user) return null;
  const done = await trx.selectFrom("reward_history").select("id").where("source_key", "=", c.sourceKey).executeTakeFirst();
  if (done) return null;
  const points = Math.max(c.points, -user.reward_points);
  const total = user.reward_points + points;
  await trx.updateTable("users").set({ reward_points: total, updated_at: new Date() }).where("id", "=", c.userId).execute();
  await trx
    .insertInto("reward_history")
    .values({ user_id: c.userId, name: c.name, points, points_to_date: total, order_id: c.orderId ?? null, source_key: c.sourceKey })
    .execute();
  const level = await applyLevel(trx, c.userId, total);
  return { points, total, level };
}
