// Password reset: a one-time link valid for one hour, sent by e-mail; the
// answer never tells whether an address is registered.
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { mailLinkBase, sendMail } from "../mail";
import { fixedT } from "../i18n";
import { clearFailures, lockedFor, rateLimit, recordFailure } from "../kernel/rate-limit";
import { hashToken, revokeAllSessions } from "../accounts/session";
import { hashPassword, revokeResetLinks } from "../accounts/password";
import { markEmailVerified } from "../accounts/email-verification";
import type { SiteLang } from "#common/i18n";

export const RESET_TOKEN_TTL_SECONDS = 60 * 60;

export type ResetRequestOutcome = "accepted" | "rate-limited";

export async function requestPasswordReset(
  ctx: AppContext,
  input: { email: string; lang: SiteLang; ip: string },
): Promise<ResetRequestOutcome> {
  const email = input.email.trim().toLowerCase();
  const limits = (await ctx.config.snapshot()).config.rateLimits;
  const [byIp, byEmail] = await Promise.all([
    rateLimit(ctx.cache, `reset:ip:${input.ip}`, limits.resetRequestsPerHour, 3600),
    rateLimit(ctx.cache, `reset:email:${email}`, 5, 3600),
  ]);
  if (!byIp.allowed) return "rate-limited";
  // Over the per-address limit we answer as usual but send nothing, so the answer reveals nothing.
  if (!byEmail.allowed) return "accepted";
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "identity", "email", "active", "localization"])
    .where(sql`lower(email)`, "=", email)
    .executeTakeFirst();
  if (!user || !user.active) return "accepted";
  const token = randomBytes(32).toString("base64url");
  // One live link per account: a new request kills the previous unused one, so a link lying in an old
  // mailbox (or a forwarded e-mail) stops working as soon as the owner asks again (issue 9 §5).
  await ctx.db.transaction().execute(async (trx) => {
    // Two requests at once would otherwise each revoke the other's (not yet written) link and both stay
    // live: the user's row lock makes them take turns, so the newest link is the only live one.
    await trx.selectFrom("users").select("id").where("id", "=", user.id).forUpdate().executeTakeFirst();
    await revokeResetLinks(trx as never, user.id);
    await trx
      .insertInto("password_reset_tokens")
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        // The application's clock, like password_changed_at's, so the two compare (a link asked for just
        // after a change must not look older than it).
        created_at: new Date(),
        expires_at: new Date(Date.now() + RESET_TOKEN_TTL_SECONDS * 1000),
      })
      .execute();
  });
  // From configuration only, never from the request (issue 10 item 1).
  const base = await mailLinkBase(ctx, user.localization);
  const link = `${base}/${input.lang}/login/reset-password/${token}/${user.identity}`;
  const t = fixedT(input.lang, "auth");
  const company = (await ctx.config.snapshot()).config.companyShortName;
  await sendMail(ctx, {
    to: user.email,
    subject: t("resetMail.subject", { company }),
    // A generic greeting: the account's name is text whoever registered typed (issue 10 §4).
    text: t("resetMail.body", { link, company, minutes: RESET_TOKEN_TTL_SECONDS / 60 }),
    template: "password-reset",
    lang: input.lang,
    userId: user.id,
    // The way back into an account whose owner never confirmed the address (ADR 026).
    beforeVerification: true,
    // The link signs its holder in as the user: only the recipient may see it, never the outbox (ADR 018).
    secrets: [link, token],
  });
  return "accepted";
}

export type ResetOutcome =
  | { ok: true; userId: number }
  | { ok: false; error: "invalid-or-expired" }
  | { ok: false; error: "too-many-attempts"; retryAfterSeconds: number };

/**
 * Limits of POST /api/auth/reset-password and the reset page (issue 10 §5): attempts per client address
 * per hour, and failed attempts per account (the `userIdentity` of the link) per hour. Configurable in
 * `rateLimits` (resetAttemptsPerHour, resetFailuresPerAccount); a configured object without them keeps
 * these defaults.
 */
export const RESET_LIMIT_DEFAULTS = { resetAttemptsPerHour: 30, resetFailuresPerAccount: 10 } as const;

function resetLimit(rateLimits: Record<string, unknown>, key: keyof typeof RESET_LIMIT_DEFAULTS): number {
  const v = rateLimits[key];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : RESET_LIMIT_DEFAULTS[key];
}

/** Checks a reset link without using it (the page shows the form only for a live link). */
export async function checkResetToken(ctx: AppContext, token: string, userIdentity: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom("password_reset_tokens as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .select(["r.expires_at", "r.used_at", "r.created_at", "u.identity", "u.password_changed_at"])
    .where("r.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  return Boolean(
    row &&
    !row.used_at &&
    row.identity === userIdentity &&
    new Date(row.expires_at) > new Date() &&
    !issuedBeforePasswordChange(row.created_at, row.password_changed_at),
  );
}

/**
 * A link issued before the password last changed is dead even when nothing marked it used (a password
 * set by a path that does not know about reset links): belt and braces for issue 10 §12.
 */
function issuedBeforePasswordChange(createdAt: Date | string, passwordChangedAt: Date | string | null): boolean {
  return passwordChangedAt !== null && new Date(createdAt) < new Date(passwordChangedAt);
}

/**
 * Sets the new password, uses the link up, and signs the user out everywhere. The link is checked before
 * the password is hashed (argon2 costs ~19 MiB and tens of milliseconds: a forged link must cost us a
 * lookup, not a hash), and attempts are limited per client address and per account (issue 10 §5).
 */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; userIdentity: string; password: string; ip: string },
): Promise<ResetOutcome> {
  const rateLimits = (await ctx.config.snapshot()).config.rateLimits as Record<string, unknown>;
  const accountKey = `reset-password:account:${input.userIdentity}`;
  const byIp = await rateLimit(ctx.cache, `reset-password:ip:${input.ip}`, resetLimit(rateLimits, "resetAttemptsPerHour"), 3600);
  if (!byIp.allowed) return { ok: false, error: "too-many-attempts", retryAfterSeconds: byIp.retryAfterSeconds };
  const locked = await lockedFor(ctx.cache, accountKey);
  if (locked > 0) return { ok: false, error: "too-many-attempts", retryAfterSeconds: locked };
  if (!(await checkResetToken(ctx, input.token, input.userIdentity))) {
    await recordFailure(ctx.cache, accountKey, resetLimit(rateLimits, "resetFailuresPerAccount"), 3600);
    return { ok: false, error: "invalid-or-expired" };
  }
  const passwordHash = await hashPassword(input.password);
  // The link may have been used or revoked while we hashed: the update checks it again, atomically.
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("password_reset_tokens as r")
      .set({ used_at: new Date() })
      .from("users as u")
      .whereRef("u.id", "=", "r.user_id")
      .where("r.token_hash", "=", hashToken(input.token))
      .where("r.used_at", "is", null)
      .where("r.expires_at", ">", new Date())
      .where("u.identity", "=", input.userIdentity)
      .where((eb) => eb.or([eb("u.password_changed_at", "is", null), eb("u.password_changed_at", "<=", eb.ref("r.created_at"))]))
      .returning("r.user_id")
      .executeTakeFirst();
    if (!row) return { ok: false, error: "invalid-or-expired" } as const;
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, password_changed_at: new Date(), updated_at: new Date() })
      .where("id", "=", row.user_id)
      .execute();
    // Any other outstanding links die with this one.
    await revokeResetLinks(trx as never, row.user_id);
    await revokeAllSessions(trx as never, row.user_id);
    return { ok: true, userId: row.user_id } as const;
  });
  if (outcome.ok) {
    await clearFailures(ctx.cache, accountKey);
    // The link came through the mailbox: the address is the owner's.
    await markEmailVerified(ctx, outcome.userId);
  }
  return outcome;
}
