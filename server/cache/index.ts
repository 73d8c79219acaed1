// Caches and counters. Redis (ioredis) when REDIS_URL is set so that every web
// process sees the same values; otherwise a map in this process. Redis sits behind a circuit breaker
// (./breaker.ts) that falls back to a map in this process while Redis is unreachable.
import { ResilientCache, type ResilientCacheOptions } from "./breaker";

export interface Cache {
  readonly kind: "redis" | "memory";
  getJson<T>(key: string): Promise<T | undefined>;
  setJson(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Increments a counter that expires `windowSeconds` after its first hit; returns the new count and seconds left. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryCache implements Cache {
  readonly kind = "memory" as const;
  private values = new Map<string, { value: string; expiresAt: number }>();

  private live(key: string) {
    const entry = this.values.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.values.delete(key);
      return undefined;
    }
    return entry;
  }

  async getJson<T>(key: string): Promise<T | undefined> {
    const entry = this.live(key);
    return entry ? (JSON.parse(entry.value) as T) : undefined;
  }

  async setJson(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.values.set(key, { value: JSON.stringify(value), expiresAt: Date.now() + ttlSeconds * 1000 });
    this.sweep();
  }

  async del(key: string): Promise<void> {
    this.values.delete(key);
  }

  async hit(key: string, windowSeconds: number) {
    const now = Date.now();
    const entry = this.live(key);
    if (!entry) {
      this.values.set(key, { value: "1", expiresAt: now + windowSeconds * 1000 });
      this.sweep();
      return { count: 1, resetInSeconds: windowSeconds };
    }
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return { count, resetInSeconds: Math.max(1, Math.ceil((entry.expiresAt - now) / 1000)) };
  }

  async ping() {
    return true;
  }

  async close() {
    this.values.clear();
  }

  /** Bounds memory: drops expired entries once the map grows. */
  private sweep() {
    if (this.values.size < 10_000) return;
    const now = Date.now();
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key);
  }
}

export class RedisCache implements Cache {
  readonly kind = "redis" as const;
  constructor(
    private redis: import("ioredis").Redis,
    private prefix: string,
  ) {}

  async getJson<T>(key: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.prefix + key);
    return raw == null ? undefined : (JSON.parse(raw) as T);
  }

  async setJson(key: string, value: unknown, ttlSeconds: number) {
    await this.redis.set(this.prefix + key, JSON.stringify(value), "EX", ttlSeconds);
  }

  async del(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async hit(key: string, windowSeconds: number) {
    const k = this.prefix + key;
    const results = await this.redis.multi().incr(k).expire(k, windowSeconds, "NX").ttl(k).exec();
    const count = Number(results?.[0]?.[1] ?? 1);
    const ttl = Number(results?.[2]?.[1] ?? windowSeconds);
    return { count, resetInSeconds: ttl > 0 ? ttl : windowSeconds };
  }

  async ping() {
    try {
      return (await this.redis.ping()) === "PONG";
    } catch {
      return false;
    }
  }

  async close() {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

export interface CacheOptions {
  /** Told when Redis goes away and when it is back (the breaker's transitions). */
  onStateChange?: ResilientCacheOptions["onStateChange"];
  /** A Redis command slower than this is answered from process memory instead (default 500 ms). */
  commandTimeoutMs?: number;
}

/**
 * Redis behind a circuit breaker with an in-process fallback (ADR 045) when `redisUrl` is set, else memory.
 * A Redis that is down at boot does not stop the portal: it serves from memory and reconnects when it can.
 */
export async function createCache(redisUrl: string | undefined, prefix = "portal:", options: CacheOptions = {}): Promise<Cache> {
  if (!redisUrl) return new MemoryCache();
  const { Redis } = await import("ioredis");
  const timeoutMs = options.commandTimeoutMs ?? 500;
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    // Fails a command at once while disconnected instead of queueing it: the breaker answers it from memory.
    enableOfflineQueue: false,
    connectTimeout: 2000,
    // A backstop for commands the breaker has stopped waiting for, so none lingers on a dead connection.
    commandTimeout: timeoutMs * 4,
    // Keeps retrying in the background so the portal recovers by itself when Redis returns.
    retryStrategy: (times) => Math.min(times * 200, 1000),
  });
  redis.on("error", () => undefined);
  const cache = new ResilientCache(new RedisCache(redis, prefix), new MemoryCache(), { timeoutMs, onStateChange: options.onStateChange });
  await redis.connect().catch((error: unknown) => {
    if (cache.breaker.failure()) options.onStateChange?.("unavailable", error);
  });
  return cache;
}
