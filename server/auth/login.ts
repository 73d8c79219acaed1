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
