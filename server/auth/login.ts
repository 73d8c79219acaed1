// E-mail and password sign-in.
import { sql } from "kysely";
import type { AppContext } from "../context";
import { verifyPassword } from "../accounts/password";
import { rateLimit } from "../http/rate-limit";
import { createSession } from "./session";

export type SignInResult =
  | { ok: true; token: string; user: { id: number; identity: string; language: string } }
  | { ok: false; error: "invalid-credentials" | "local-auth-disabled" }
  | { ok: false; error: "too-many-attempts"; retryAfterSeconds: number };

// A hash of a random password: verifying against it when the e-mail is unknown keeps the timing the same.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$6Jpddxu4qSIhKwKr7X6/8w$jc2aAgHffynAQ+z2578xsACBkBtsg8nuReJ2wbpe08Q";

export async function signInWithPassword(
  ctx: AppContext,
  input: { email: string; password: string; ip: string; userAgent?: string | null },
): Promise<SignInResult> {
  const snapshot = await ctx.config.snapshot();
  if (!snapshot.config.localAuthEnabled) return { ok: false, error: "local-auth-disabled" };
  const email = input.email.trim().toLowerCase();
  const [byIp, byAccount] = await Promise.all([
    rateLimit(ctx.cache, `signin:ip:${input.ip}`, snapshot.config.rateLimits.signInPerMinute, 60),
    rateLimit(ctx.cache, `signin:acct:${email}`, snapshot.config.rateLimits.signInPerMinute, 60),
  ]);
  if (!byIp.allowed || !byAccount.allowed) {
    return {
      ok: false,
      error: "too-many-attempts",
      retryAfterSeconds: Math.max(byIp.allowed ? 0 : byIp.retryAfterSeconds, byAccount.allowed ? 0 : byAccount.retryAfterSeconds),
    };
  }
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "identity", "password_hash", "active", "language"])
    .where(sql`lower(email)`, "=", email)
    .executeTakeFirst();
  const valid = await verifyPassword(user?.password_hash ?? DUMMY_HASH, input.password);
  if (!user || !valid || !user.active) return { ok: false, error: "invalid-credentials" };
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
