// Fixed-window rate limits counted in the shared cache (Redis when present), and failure locks:
// counters of failed attempts that shut one door (a key) for a while once too many failed.
import type { Cache } from "../cache";

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export async function rateLimit(cache: Cache, key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const { count, resetInSeconds } = await cache.hit(`rl:${key}`, windowSeconds);
  return { allowed: count <= limit, count, retryAfterSeconds: resetInSeconds };
}

/** Seconds left on the lock of `key`, or 0 when it is open. Reading it counts nothing. */
export async function lockedFor(cache: Cache, key: string): Promise<number> {
  const until = await cache.getJson<number>(`lock:${key}`);
  const left = typeof until === "number" ? Math.ceil((until - Date.now()) / 1000) : 0;
  return left > 0 ? left : 0;
}

/** Closes `key` for `seconds` (a longer lock already in place stays). */
export async function lock(cache: Cache, key: string, seconds: number): Promise<void> {
  if ((await lockedFor(cache, key)) >= seconds) return;
  await cache.setJson(`lock:${key}`, Date.now() + seconds * 1000, Math.max(1, Math.ceil(seconds)));
}

/**
 * Counts one failure of `key` in a window of `windowSeconds`; from the `limit`-th failure on, the key is
 * locked for the rest of the window. Answers the count and how long the key is now locked (0: open).
 */
export async function recordFailure(
  cache: Cache,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<{ count: number; lockedForSeconds: number }> {
  const { count, resetInSeconds } = await cache.hit(`fail:${key}`, windowSeconds);
  if (count < limit) return { count, lockedForSeconds: 0 };
  await lock(cache, key, resetInSeconds);
  return { count, lockedForSeconds: resetInSeconds };
}

/** Forgets the failures of `key` (a success) and opens its lock. */
export async function clearFailures(cache: Cache, key: string): Promise<void> {
  await Promise.all([cache.del(`fail:${key}`), cache.del(`lock:${key}`)]);
}
