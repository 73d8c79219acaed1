// Registration through a referral link (issue 25 item 3): the accounts area emits `researcherRegistered` in the
// transaction that creates the account; this handler (server/event-handlers.ts) records who referred. An unknown
// code does nothing; the referrer's own mailbox again (self-referral: "jane+2@…" for "jane@…") is kept as a refused
// row; otherwise a pending referral, users.referred_by_user_id and the colleague's first-order discount: a personal
// promo code (one use, `referralAmount` USD, which the pricing engine converts at order time).
import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../db";
import type { ResearcherRegistered } from "../accounts/events";
import { parseMajor } from "#common/money";
import { canonicalEmail } from "./rules";

/** The welcome code's alphabet: no 0/O or 1/I look-alikes. */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const WELCOME_CODE_PREFIX = "WELCOME-";

export function newWelcomeCode(): string {
  let code = WELCOME_CODE_PREFIX;
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** The referral amount in USD cents (configured in whole or decimal dollars). */
export function referralAmountUsdCents(amount: unknown): number | null {
  if (typeof amount !== "number" && typeof amount !== "string") return null;
  const cents = parseMajor(String(amount), 2);
  return cents && cents > 0 ? cents : null;
}

export async function recordReferral(trx: DB, e: ResearcherRegistered, referralAmount: unknown): Promise<void> {
  if (!e.referralCode) return;
  const referrer = await trx
    .selectFrom("users")
    .select(["id", "email", "is_staff"])
    .where(sql`upper(referral_code)`, "=", e.referralCode.toUpperCase())
    .executeTakeFirst();
  if (!referrer || referrer.id === e.userId) return;
  if (canonicalEmail(referrer.email) === canonicalEmail(e.email)) {
    // The referrer's own mailbox again: kept so staff see the attempt, no discount, no credit.
    await trx
      .insertInto("referrals")
      .values({ referrer_user_id: referrer.id, referred_user_id: e.userId, status: "refused", refused_reason: "self" })
      .onConflict((oc) => oc.column("referred_user_id").doNothing())
      .execute();
    return;
  }
  const row = await trx
    .insertInto("referrals")
    .values({ referrer_user_id: referrer.id, referred_user_id: e.userId })
    .onConflict((oc) => oc.column("referred_user_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  // A second claim for one account is impossible: the unique referred_user_id keeps the first.
  if (!row) return;
  await trx.updateTable("users").set({ referred_by_user_id: referrer.id }).where("id", "=", e.userId).execute();
  const cents = referralAmountUsdCents(referralAmount);
  if (!cents) return;
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newWelcomeCode();
    const inserted = await trx
      .insertInto("promo_codes")
      .values({
        code,
        amount_off_cents: cents,
        max_uses: 1,
        user_id: e.userId,
        source: "referral-welcome",
        name: "referral-welcome",
      })
      .onConflict((oc) => oc.column("code").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) return;
  }
}
