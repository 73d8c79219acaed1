// Password reset: a one-time link valid for one hour, sent by e-mail; the
// answer never tells whether an address is registered.
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { mailLinkBase, sendMail } from "../mail";
import { fixedT } from "../i18n";
import { rateLimit } from "../http/rate-limit";
import { hashToken, revokeAllSessions } from "./session";
import { hashPassword } from "../accounts/password";
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
    .select(["id", "identity", "email", "first_name", "active", "localization"])
    .where(sql`lower(email)`, "=", email)
    .executeTakeFirst();
  if (!user || !user.active) return "accepted";
  const token = randomBytes(32).toString("base64url");
  // One live link per account: a new request kills the previous unused one, so a link lying in an old
  // mailbox (or a forwarded e-mail) stops working as soon as the owner asks again (issue 9 §5).
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("password_reset_tokens")
      .set({ used_at: new Date() })
      .where("user_id", "=", user.id)
      .where("used_at", "is", null)
      .execute();
    await trx
      .insertInto("password_reset_tokens")
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + RESET_TOKEN_TTL_SECONDS * 1000) })
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
    text: t("resetMail.body", { name: user.first_name, link, company, minutes: RESET_TOKEN_TTL_SECONDS / 60 }),
    template: "password-reset",
    lang: input.lang,
    userId: user.id,
    // The link signs its holder in as the user: only the recipient may see it, never the outbox (ADR 018).
    secrets: [link, token],
  });
  return "accepted";
}

export type ResetOutcome = { ok: true; userId: number } | { ok: false; error: "invalid-or-expired" };

/** Checks a reset link without using it (the page shows the form only for a live link). */
export async function checkResetToken(ctx: AppContext, token: string, userIdentity: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom("password_reset_tokens as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .select(["r.expires_at", "r.used_at", "u.identity"])
    .where("r.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  return Boolean(row && !row.used_at && row.identity === userIdentity && new Date(row.expires_at) > new Date());
}

/** Sets the new password, uses the link up, and signs the user out everywhere. */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; userIdentity: string; password: string },
): Promise<ResetOutcome> {
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("password_reset_tokens as r")
      .set({ used_at: new Date() })
      .from("users as u")
      .whereRef("u.id", "=", "r.user_id")
      .where("r.token_hash", "=", hashToken(input.token))
      .where("r.used_at", "is", null)
      .where("r.expires_at", ">", new Date())
      .where("u.identity", "=", input.userIdentity)
      .returning("r.user_id")
      .executeTakeFirst();
    if (!row) return { ok: false, error: "invalid-or-expired" } as const;
    await trx.updateTable("users").set({ password_hash: passwordHash, updated_at: new Date() }).where("id", "=", row.user_id).execute();
    // Any other outstanding links die with this one.
    await trx
      .updateTable("password_reset_tokens")
      .set({ used_at: new Date() })
      .where("user_id", "=", row.user_id)
      .where("used_at", "is", null)
      .execute();
    await revokeAllSessions(trx as never, row.user_id);
    return { ok: true, userId: row.user_id } as const;
  });
}
