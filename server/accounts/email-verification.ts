// E-mail ownership (issue 10 §4, ADR 026). Registration signs in with an address nobody has proved to own; until
// its owner opens the signed link of the verification mail, the portal sends that address nothing but this mail
// and password-reset links (server/mail refuses the rest). The link is stateless: an HMAC over the account,
// its current address and an expiry, so a link for an old address dies when the address changes.
import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { isSiteLang, type SiteLang } from "#common/i18n";
import { fail, ok, type Result } from "#common/result";
import { fixedT } from "../i18n";
import { mailLinkBase, sendMail } from "../mail";
import { invalidateUser } from "./user-cache";

export const EMAIL_VERIFICATION_TTL_SECONDS = 7 * 24 * 3600;

function signature(ctx: Pick<AppContext, "secrets">, identity: string, email: string, expires: number): string {
  return createHmac("sha256", ctx.secrets.cookieSecret)
    .update(`email-verification\n${identity}\n${email.trim().toLowerCase()}\n${expires}`)
    .digest("base64url");
}

/** The path of a verification link (without the origin). */
export function emailVerificationPath(lang: SiteLang, identity: string, expires: number, sig: string): string {
  return `/${lang}/verify-email/${encodeURIComponent(identity)}/${expires}/${encodeURIComponent(sig)}`;
}

/**
 * E-mails the account's owner the signed link that proves the address is theirs, in the account's language with
 * its /{lang} link (issue 22 item 2: a cn account registering through the API got English and /en);
 * `lang` only stands in for an account whose stored language is not a site language: `sent`, `verified` (nothing to
 * do) or `limited` (the address's mail limit, ADR 026: a resend button cannot become a spam cannon).
 */
export async function sendVerificationMail(ctx: AppContext, userId: number, lang: SiteLang): Promise<"sent" | "verified" | "limited"> {
  const user = await ctx.db
    .selectFrom("users")
    .select(["identity", "email", "email_verified_at", "localization", "language"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user || user.email_verified_at) return "verified";
  const mailLang: SiteLang = isSiteLang(user.language) ? user.language : lang;
  const expires = Math.floor(Date.now() / 1000) + EMAIL_VERIFICATION_TTL_SECONDS;
  // Links come from configuration only, never from a request header (issue 10 §1; ADR 025).
  const base = await mailLinkBase(ctx, user.localization);
  const link = `${base}${emailVerificationPath(mailLang, user.identity, expires, signature(ctx, user.identity, user.email, expires))}`;
  const t = fixedT(mailLang, "auth");
  const company = (await ctx.config.snapshot()).config.companyShortName;
  const outcome = await sendMail(ctx, {
    to: user.email,
    subject: t("verifyMail.subject", { company }),
    text: t("verifyMail.body", { link, company, days: EMAIL_VERIFICATION_TTL_SECONDS / 86400 }),
    template: "email-verification",
    lang: mailLang,
    userId,
    beforeVerification: true,
    // Whoever holds the link can vouch for the address: only its recipient may see it (ADR 018).
    secrets: [link],
  });
  return outcome.status === "limited" ? "limited" : "sent";
}

/** Whether the account's address is proven (the account page offers to resend the link when it is not). */
export async function isEmailVerified(ctx: AppContext, userId: number): Promise<boolean> {
  const row = await ctx.db.selectFrom("users").select("email_verified_at").where("id", "=", userId).executeTakeFirst();
  return Boolean(row?.email_verified_at);
}

/** Whether a verification link is genuine, unexpired and for the account's current address (the page's GET). */
async function linkedUser(ctx: AppContext, input: { identity: string; expires: string; signature: string }) {
  const expires = Number(input.expires);
  if (!Number.isSafeInteger(expires) || expires * 1000 < Date.now()) return null;
  if (!/^[0-9a-f-]{36}$/.test(input.identity)) return null;
  const user = await ctx.db.selectFrom("users").select(["id", "email"]).where("identity", "=", input.identity).executeTakeFirst();
  if (!user) return null;
  const wanted = Buffer.from(signature(ctx, input.identity, user.email, expires));
  const given = Buffer.from(input.signature);
  return wanted.length === given.length && timingSafeEqual(wanted, given) ? user : null;
}

export async function checkVerificationLink(
  ctx: AppContext,
  input: { identity: string; expires: string; signature: string },
): Promise<boolean> {
  return Boolean(await linkedUser(ctx, input));
}

/** Marks the address verified (a POST from the link's page). Error: `invalid-or-expired`. */
export async function verifyEmail(ctx: AppContext, input: { identity: string; expires: string; signature: string }): Promise<Result> {
  const user = await linkedUser(ctx, input);
  if (!user) return fail("invalid-or-expired");
  await markEmailVerified(ctx, user.id);
  return ok();
}

/** Records that the owner proved the address (the verification link, or a completed password reset). */
export async function markEmailVerified(ctx: AppContext, userId: number): Promise<void> {
  const r = await ctx.db
    .updateTable("users")
    .set({ email_verified_at: sql<Date>`now()` })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) await invalidateUser(ctx, userId);
}
