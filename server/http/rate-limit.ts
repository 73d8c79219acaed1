// Fixed-window rate limits counted in the shared cache (Redis when present).
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
