// Password hashing: argon2id with m = 19 MiB, t = 2, p = 1 (OWASP ASVS / DESIGN §5).
import { hash, verify } from "@node-rs/argon2";
import type { Cache } from "../cache";
import type { DB } from "../db";
import { clearFailures, lockedFor, recordFailure } from "../kernel/rate-limit";

const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable with isolatedModules) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Wrong current passwords the password-change form accepts per account within CURRENT_PASSWORD_WINDOW_SECONDS. */
export const CURRENT_PASSWORD_FAILURES = 5;
const CURRENT_PASSWORD_WINDOW_SECONDS = 15 * 60;

/**
 * Checks the current password a signed-in user types to change it (issue 10 §7, ADR 024). Whoever holds
 * a session (perhaps a stolen one) could otherwise guess the password with it at full speed: after
 * CURRENT_PASSWORD_FAILURES wrong answers the account's check is closed for the rest of a 15-minute
 * window, from every address and even for the right password.
 */
export async function checkCurrentPassword(
  ctx: { cache: Cache },
  userId: number,
  passwordHash: string | null | undefined,
  password: string,
): Promise<{ ok: true } | { ok: false; error: "wrong" } | { ok: false; error: "too-many-attempts"; retryAfterSeconds: number }> {
  const key = `password-check:${userId}`;
  const locked = await lockedFor(ctx.cache, key);
  if (locked > 0) return { ok: false, error: "too-many-attempts", retryAfterSeconds: locked };
  if (await verifyPassword(passwordHash, password)) {
    await clearFailures(ctx.cache, key);
    return { ok: true };
  }
  await recordFailure(ctx.cache, key, CURRENT_PASSWORD_FAILURES, CURRENT_PASSWORD_WINDOW_SECONDS);
  return { ok: false, error: "wrong" };
}

/**
 * Kills every unused reset link of a user: a new request does it, and so does every password change (issue
 * 10 §12): a link lying in a mailbox must not outlive the password it was meant to replace. Here, not beside the
 * reset flow in auth: the password change (accounts) needs it, and auth loads accounts (ADR 059).
 */
export async function revokeResetLinks(db: DB, userId: number): Promise<void> {
  await db
    .updateTable("password_reset_tokens")
    .set({ used_at: new Date() })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}
