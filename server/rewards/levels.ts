// Loyalty levels reached (issue 25 item 1, ADR 075). After every change of a user's points (changePoints, in its
// transaction) the user's level follows the total and the count of paid orders: users.loyalty_level is the highest
// level whose minimum points and orders are both reached — it goes down again when a reversal takes the points back.
// A level's benefits are granted once per user, the first time it is reached (loyalty_level_grants' key): personal
// promo codes (promo_codes.user_id, source 'level:<identity>', an end date from the template), and educational
// benefits, which are read from configuration for the levels granted. Benefits granted stay when the level is lost.
import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../db";
import { levelReached, type LoyaltyLevel } from "#common/rewards/levels";
import { loyaltySettings } from "./settings";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const DAY_MS = 86_400_000;

/** "RW" and 10 characters without look-alikes: about 50 bits, never guessed for another user's code. */
export function newRewardCode(): string {
  let code = "RW";
  for (let i = 0; i < 10; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Orders that count toward a level: paid and not cancelled. */
export async function paidOrderCount(trx: DB, userId: number): Promise<number> {
  const row = await trx
    .selectFrom("orders")
    .select(sql<string>`count(*)`.as("n"))
    .where("user_id", "=", userId)
    .where("paid", "=", true)
    .where("status", "<>", "cancelled")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function grantLevel(trx: DB, userId: number, level: LoyaltyLevel, now: Date): Promise<boolean> {
  const granted = await trx
    .insertInto("loyalty_level_grants")
    .values({ user_id: userId, level: level.identity })
    .onConflict((oc) => oc.columns(["user_id", "level"]).doNothing())
    .returning("level")
    .executeTakeFirst();
  if (!granted) return false;
  for (const t of level.promoCodes)
    await trx
      .insertInto("promo_codes")
      .values({
        code: newRewardCode(),
        // The order summary names it as any promo code ("Promotional Code"); the rewards pages name it by its level.
        description_key: null,
        percent_off: t.percentOff ? String(t.percentOff) : null,
        amount_off_cents: t.amountOffUsdCents ?? null,
        starts_at: now,
        ends_at: new Date(now.getTime() + t.validDays * DAY_MS),
        active: true,
        max_uses: 1,
        user_id: userId,
        source: `level:${level.identity}`,
      })
      .execute();
  return true;
}

/**
 * Sets the user's level from `points` (their new total) and their paid orders, and grants every level reached up to
 * it that was never granted. In the caller's transaction, after the user's row was locked. Returns the level.
 */
export async function applyLevel(trx: DB, userId: number, points: number, now = new Date()): Promise<string> {
  const { levels } = await loyaltySettings(trx);
  const orders = await paidOrderCount(trx, userId);
  const reached = levelReached(levels, points, orders);
  const identity = reached?.identity ?? "level0";
  await trx.updateTable("users").set({ loyalty_level: identity }).where("id", "=", userId).where("loyalty_level", "<>", identity).execute();
  if (reached)
    for (const level of levels) {
      if (level.minimumPointsNeeded > reached.minimumPointsNeeded) break;
      if (level.identity === "level0") continue;
      await grantLevel(trx, userId, level, now);
    }
  return identity;
}
