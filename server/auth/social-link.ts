// Who a social sign-in identity is (spec 1 §2 "Sign-in area", §4): a linked account signs in;
// an account with the same, provider-verified e-mail gets linked and signs in; otherwise the
// visitor registers from register/confirm/{data}, and the new account is linked to the
// identity through a one-time pending link kept server-side (ADR 003).
import { markEmailVerified } from "../accounts/email-verification";
import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { AppContext } from "../context";

/** What the provider told us about the person. */
export interface SocialProfile {
  /** The provider's stable identifier (OIDC `sub`). */
  subject: string;
  email: string | null;
  /** True only when the provider says so (`email_verified: true`). */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

export interface RegisterPrefill {
  email: string;
  firstName: string;
  lastName: string;
  /** Pending link id (only for a provider-verified e-mail). */
  link?: string;
}

export type SocialFailure =
  "account-inactive" | "no-email" | "email-not-verified" | "identity-linked-elsewhere" | "provider-already-linked" | "impersonating";

export type IdentityResolution =
  | { kind: "sign-in"; userId: number; linked: boolean }
  /** The visitor was already signed in: the identity is (now) linked to their account. */
  | { kind: "linked-to-current"; userId: number }
  | { kind: "register"; prefill: RegisterPrefill }
  | { kind: "failure"; reason: SocialFailure };

/** How long a visitor has to finish registering after a social sign-in. */
export const PENDING_LINK_TTL_SECONDS = 30 * 60;
const LINK_ID_RE = /^[A-Za-z0-9_-]{32,64}$/;

interface PendingLink {
  providerId: string;
  subject: string;
  email: string;
  expiresAt: number;
}

const hashId = (linkId: string) => createHash("sha256").update(linkId).digest("hex");
const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Stores a pending link (keyed by the hash of a random id, so the cache never holds a usable id) and returns the id. */
export async function createPendingLink(ctx: AppContext, link: { providerId: string; subject: string; email: string }): Promise<string> {
  const linkId = randomBytes(32).toString("base64url");
  const pending: PendingLink = { ...link, expiresAt: Date.now() + PENDING_LINK_TTL_SECONDS * 1000 };
  await ctx.cache.setJson(`social:pending:${hashId(linkId)}`, pending, PENDING_LINK_TTL_SECONDS);
  return linkId;
}

async function audit(ctx: AppContext, userId: number, providerId: string, via: string): Promise<void> {
  await ctx.db
    .insertInto("audit_log")
    .values({
      actor_user_id: userId,
      action: "social.link",
      target_type: "oauth_provider",
      target_id: providerId,
      data: JSON.stringify({ via }),
    })
    .execute();
}

/** Inserts the link; false when the identity or the account's slot for this provider is taken. */
async function insertLink(
  ctx: AppContext,
  userId: number,
  providerId: string,
  subject: string,
  email: string | null,
  signedIn: boolean,
): Promise<boolean> {
  const row = await ctx.db
    .insertInto("linked_accounts")
    .values({ user_id: userId, provider_id: providerId, subject, email, last_sign_in_at: signedIn ? new Date() : null })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Attaches the pending social identity `linkId` to the new user when its verified e-mail matches; returns whether it did.
 * The pending link must exist and be unexpired; it is used up by the first attempt, whatever its outcome.
 * Never throws: a registration that succeeded stays successful.
 */
export async function attachPendingLink(ctx: AppContext, linkId: string, user: { id: number; email: string }): Promise<boolean> {
  if (typeof linkId !== "string" || !LINK_ID_RE.test(linkId)) return false;
  const key = hashId(linkId);
  try {
    const pending = await ctx.cache.getJson<PendingLink>(`social:pending:${key}`);
    if (!pending || pending.expiresAt <= Date.now()) return false;
    // The counter is atomic (Redis INCR, or the single-threaded process map): only one use wins.
    const use = await ctx.cache.hit(`social:pending-used:${key}`, PENDING_LINK_TTL_SECONDS);
    if (use.count > 1) return false;
    await ctx.cache.del(`social:pending:${key}`);
    if (!sameEmail(pending.email, user.email)) {
      ctx.logger.warn({ userId: user.id, providerId: pending.providerId }, "social link refused: e-mail differs from the provider's");
      return false;
    }
    const linked = await insertLink(ctx, user.id, pending.providerId, pending.subject, pending.email, true);
    if (linked) await audit(ctx, user.id, pending.providerId, "registration");
    return linked;
  } catch (error) {
    ctx.logger.error({ err: error, userId: user.id }, "social link after registration failed");
    return false;
  }
}

/** Decides what a social sign-in with `profile` at `providerId` leads to (see the file comment). */
export async function resolveSocialIdentity(
  ctx: AppContext,
  providerId: string,
  profile: SocialProfile,
  current: { userId: number; impersonated: boolean } | null = null,
): Promise<IdentityResolution> {
  const existing = await ctx.db
    .selectFrom("linked_accounts as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select(["l.id", "l.user_id", "u.active"])
    .where("l.provider_id", "=", providerId)
    .where("l.subject", "=", profile.subject)
    .executeTakeFirst();

  if (existing) {
    if (current && current.userId !== existing.user_id) return { kind: "failure", reason: "identity-linked-elsewhere" };
    if (!existing.active) return { kind: "failure", reason: "account-inactive" };
    await ctx.db.updateTable("linked_accounts").set({ last_sign_in_at: new Date() }).where("id", "=", existing.id).execute();
    return current ? { kind: "linked-to-current", userId: current.userId } : { kind: "sign-in", userId: existing.user_id, linked: false };
  }

  // A signed-in researcher links another way of signing in (the account page's provider helper).
  if (current) {
    if (current.impersonated) return { kind: "failure", reason: "impersonating" };
    if (!(await insertLink(ctx, current.userId, providerId, profile.subject, profile.email, true)))
      return { kind: "failure", reason: "provider-already-linked" };
    await audit(ctx, current.userId, providerId, "signed-in");
    return { kind: "linked-to-current", userId: current.userId };
  }

  if (!profile.email) return { kind: "failure", reason: "no-email" };
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "active"])
    .where(sql`lower(email)`, "=", profile.email.trim().toLowerCase())
    .executeTakeFirst();

  if (user) {
    // Only the provider's word that the address is verified lets it stand in for the account's owner.
    if (!profile.emailVerified) return { kind: "failure", reason: "email-not-verified" };
    if (!user.active) return { kind: "failure", reason: "account-inactive" };
    if (!(await insertLink(ctx, user.id, providerId, profile.subject, profile.email, true)))
      return { kind: "failure", reason: "provider-already-linked" };
    // The provider vouched for this very address: the account's address is proven (issue 10 §4).
    await markEmailVerified(ctx, user.id);
    await audit(ctx, user.id, providerId, "verified-email");
    return { kind: "sign-in", userId: user.id, linked: true };
  }

  // New here: register with the provider's details. An unverified address is prefilled but not linked,
  // so nobody can plant their identity on an account for an address they do not own.
  const prefill: RegisterPrefill = { email: profile.email, firstName: profile.firstName, lastName: profile.lastName };
  if (profile.emailVerified) prefill.link = await createPendingLink(ctx, { providerId, subject: profile.subject, email: profile.email });
  return { kind: "register", prefill };
}

/** register/confirm/{data}: base64url of the JSON prefill. */
export function encodeRegisterPrefill(prefill: RegisterPrefill): string {
  return Buffer.from(JSON.stringify(prefill), "utf8").toString("base64url");
}
