// E-mail and password sign-in, and its limits (ADR 002, ADR 024).
//
// The limits must stop guessing without letting a guesser lock the owner out (issue 10 §7):
// - per address: FAILURES only, `signInPerMinute` a minute (one client guessing across accounts). Successes never
//   count and never clear the count (issue 26 §6, ADR 082): a university's NAT puts hundreds of researchers behind
//   one address, and their sign-ins must not lock each other out — nor may one researcher's success wipe an
//   attacker's failures from the same address;
// - per account AND address (strict): `signInFailuresPerAccountAddress` failures within 15 minutes
//   shut that address out for that account, even with the right password, until the window ends;
// - per account (looser): past `signInFailuresPerAccount` failures within an hour, from any address,
//   every further failure shuts its address out for a delay that doubles with each (1 s, 2 s, 4 s … 15 min).
// An address that has not failed for this account is never shut out by the account's count, so the
// owner's correct password from their own address goes through while someone guesses elsewhere.
import { sql } from "kysely";
import type { AppContext } from "../context";
import { verifyPassword } from "../accounts/password";
import { clearFailures, lockedFor, lock, recordFailure } from "../kernel/rate-limit";
import { createSession } from "../accounts/session";

export type SignInResult =
  | { ok: true; token: string; user: { id: number; identity: string; language: string } }
  | { ok: false; error: "invalid-credentials" | "local-auth-disabled" }
  | { ok: false; error: "too-many-attempts"; retryAfterSeconds: number };

// A hash of a random password: verifying against it when the e-mail is unknown keeps the timing the same.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$6Jpddxu4qSIhKwKr7X6/8w$jc2aAgHffynAQ+z2578xsACBkBtsg8nuReJ2wbpe08Q";

/** Defaults of the failure limits; each can be set in the `rateLimits` config value. */
export const SIGN_IN_LIMIT_DEFAULTS = { signInFailuresPerAccountAddress: 10, signInFailuresPerAccount: 20 };
const ACCOUNT_ADDRESS_WINDOW_SECONDS = 15 * 60;
const ACCOUNT_WINDOW_SECONDS = 60 * 60;
const MAX_DELAY_SECONDS = 15 * 60;

function configuredLimit(rateLimits: Record<string, unknown>, key: keyof typeof SIGN_IN_LIMIT_DEFAULTS): number {
  const v = rateLimits[key];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : SIGN_IN_LIMIT_DEFAULTS[key];
}

/** The delay a failure earns once the account has `over` failures more than its looser limit. */
export function growingDelaySeconds(over: number): number {
  return Math.min(MAX_DELAY_SECONDS, 2 ** Math.min(Math.max(0, over - 1), 20));
}

export async function signInWithPassword(
  ctx: AppContext,
  input: { email: string; password: string; ip: string; userAgent?: string | null },
): Promise<SignInResult> {
  const snapshot = await ctx.config.snapshot();
  if (!snapshot.config.localAuthEnabled) return { ok: false, error: "local-auth-disabled" };
  const rateLimits = snapshot.config.rateLimits as Record<string, unknown>;
  const email = input.email.trim().toLowerCase();
  const here = `signin:${email}:${input.ip}`;
  const address = `signin:address:${input.ip}`;
  const locked = Math.max(...(await Promise.all([lockedFor(ctx.cache, address), lockedFor(ctx.cache, here)])));
  if (locked > 0) return { ok: false, error: "too-many-attempts", retryAfterSeconds: locked };

  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "identity", "password_hash", "active", "language"])
    .where(sql`lower(email)`, "=", email)
    .executeTakeFirst();
  const valid = await verifyPassword(user?.password_hash ?? DUMMY_HASH, input.password);
  if (!user || !valid || !user.active) {
    const [, , account] = await Promise.all([
      recordFailure(ctx.cache, address, snapshot.config.rateLimits.signInPerMinute, 60),
      recordFailure(ctx.cache, here, configuredLimit(rateLimits, "signInFailuresPerAccountAddress"), ACCOUNT_ADDRESS_WINDOW_SECONDS),
      ctx.cache.hit(`fail:signin:account:${email}`, ACCOUNT_WINDOW_SECONDS),
    ]);
    const over = account.count - configuredLimit(rateLimits, "signInFailuresPerAccount");
    if (over > 0) await lock(ctx.cache, here, growingDelaySeconds(over));
    return { ok: false, error: "invalid-credentials" };
  }
  // The owner got in from here: this address's earlier typos no longer count against this account (the address's
  // own count stays: a success must not wipe an attacker's failures from a shared address).
  await clearFailures(ctx.cache, here);
  const token = await createSession(ctx.db, user.id, { ip: input.ip, userAgent: input.userAgent });
  return { ok: true, token, user: { id: user.id, identity: user.identity, language: user.language } };
}

/** Failures of /login/{failure}/{message} that have their own translated message. */
const KNOWN_LOGIN_FAILURES = new Set(["oauth-failure", "session-expired", "account-inactive", "wechat-failure", "link-expired"]);

/** The longest failure message the sign-in page shows from its URL. */
export const LOGIN_FAILURE_MAX_CHARS = 200;

export type LoginFailure = { key: string } | { message: string };

/**
 * What the sign-in page shows for /login/{failure}/{message} (spec 1 §2: "the message is decoded and shown").
 * A known failure code is its translated message; any other text is shown decoded, as plain text (React
 * escapes it), without control or formatting characters (no bidi tricks), at most 200 characters, inside a
 * translated frame ("Sign-in failed: …") so it cannot pass for the portal's own copy. `decoded` is the
 * path segment as the router decoded it.
 */
export function loginFailure(decoded: string): LoginFailure {
  if (KNOWN_LOGIN_FAILURES.has(decoded)) return { key: `auth:login.failures.${decoded}` };
  const clean = decoded
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!clean) return { key: "auth:login.failures.generic" };
  const chars = [...clean];
  return { message: chars.length > LOGIN_FAILURE_MAX_CHARS ? `${chars.slice(0, LOGIN_FAILURE_MAX_CHARS - 1).join("")}…` : clean };
}

/** Whether a path has a percent-escape that does not decode (the router then leaves it raw): a 404. */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}
