// A circuit breaker in front of Redis (ADR 045). Redis holds only caches and counters, so when it stops
// answering the portal keeps serving from this process's memory instead of failing or waiting:
// - closed: commands go to Redis; a failure, or a command slower than `timeoutMs`, opens the breaker;
// - open: nothing waits on Redis; every call is served by the in-process fallback for `openMs`;
// - half-open: after `openMs` one call (the probe) goes to Redis while the others stay on the fallback;
//   its success closes the breaker, its failure opens it again.
// Rate limits therefore stay enforced during an outage, per process (the fallback counts them).
import type { Cache, MemoryCache } from "./index";

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** How long the breaker stays open before a probe is let through. */
  openMs?: number;
  now?: () => number;
}

export class CircuitBreaker {
  private openedAt: number | null = null;
  private probing = false;
  readonly openMs: number;
  private now: () => number;

  constructor(options: BreakerOptions = {}) {
    this.openMs = options.openMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.openedAt === null) return "closed";
    return this.now() - this.openedAt >= this.openMs ? "half-open" : "open";
  }

  /** Whether this call may go to Redis; in half-open only the first caller (the probe) may. */
  allow(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.probing) return false;
    this.probing = true;
    return true;
  }

  /** A command succeeded; answers true when this closed an open breaker (Redis is back). */
  success(): boolean {
    const wasOpen = this.openedAt !== null;
    this.openedAt = null;
    this.probing = false;
    return wasOpen;
  }

  /** A command failed or timed out; answers true when this opened a closed breaker. */
  failure(): boolean {
    const wasClosed = this.openedAt === null;
    this.openedAt = this.now();
    this.probing = false;
    return wasClosed;
  }
}

class CommandTimeout extends Error {
  constructor(ms: number) {
    super(`redis command slower than ${ms} ms`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // Rejected from setImmediate, after the event loop's poll phase: when the loop itself was blocked past
    // `ms` (a busy process, not a slow Redis) an answer already waiting on the socket still wins.
    timer = setTimeout(() => setImmediate(() => reject(new CommandTimeout(ms))), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface ResilientCacheOptions extends BreakerOptions {
  /** A command slower than this counts as a failure (the caller is answered from the fallback). */
  timeoutMs?: number;
  /** Told when Redis goes away and when it is back. */
  onStateChange?: (event: "unavailable" | "recovered", error?: unknown) => void;
}

/** Most keys deleted during an outage that are deleted again in Redis when it returns. */
const MAX_PENDING_DELETES = 10_000;

/** Redis behind a circuit breaker, with this process's memory as the fallback. */
export class ResilientCache implements Cache {
  readonly kind = "redis" as const;
  readonly breaker: CircuitBreaker;
  readonly fallback: MemoryCache;
  private timeoutMs: number;
  private onStateChange: ResilientCacheOptions["onStateChange"];
  // Keys deleted or written while Redis was out of reach (a user's cached view, the config snapshot…) are
  // deleted in Redis when it returns, so Redis cannot serve a value older than the outage's afterwards.
  private pendingDeletes = new Set<string>();

  constructor(
    private primary: Cache,
    /** This process's memory (a MemoryCache; passed in, so this module imports no values from ./index). */
    fallback: MemoryCache,
    options: ResilientCacheOptions = {},
  ) {
    this.breaker = new CircuitBreaker(options);
    this.fallback = fallback;
    this.timeoutMs = options.timeoutMs ?? 500;
    this.onStateChange = options.onStateChange;
  }

  /** Runs `op` on Redis when the breaker allows, else (or when it fails) on the fallback; says which answered. */
  private async runFrom<T>(op: (cache: Cache) => Promise<T>): Promise<{ value: T; redis: boolean }> {
    if (this.breaker.allow()) {
      try {
        const value = await withTimeout(op(this.primary), this.timeoutMs);
        if (this.breaker.success()) this.recovered();
        return { value, redis: true };
      } catch (error) {
        if (this.breaker.failure()) this.onStateChange?.("unavailable", error);
      }
    }
    return { value: await op(this.fallback), redis: false };
  }

  private async run<T>(op: (cache: Cache) => Promise<T>): Promise<T> {
    return (await this.runFrom(op)).value;
  }

  private recovered() {
    this.onStateChange?.("recovered");
    // Redis is the one source of truth again: what this process kept meanwhile is dropped, so it can never
    // shadow a newer value (or a delete) made in Redis by another process. Counters and locks of the outage
    // restart in Redis; a pending social link made during it is asked for again.
    void this.fallback.close();
    const keys = [...this.pendingDeletes];
    this.pendingDeletes.clear();
    // Best effort, in the background: a delete lost here only leaves a value until its time to live.
    for (const key of keys) void this.primary.del(key).catch(() => undefined);
  }

  getJson<T>(key: string): Promise<T | undefined> {
    return this.run((c) => c.getJson<T>(key));
  }

  async setJson(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    const { redis: inRedis } = await this.runFrom((c) => c.setJson(key, value, ttlSeconds));
    // A value written to memory during an outage makes Redis's copy (kept through a network partition) older
    // than the outage: it is deleted there on return.
    if (!inRedis) this.forgetInRedisLater(key);
  }

  private forgetInRedisLater(key: string) {
    if (this.pendingDeletes.size < MAX_PENDING_DELETES) this.pendingDeletes.add(key);
  }

  async del(key: string): Promise<void> {
    const { redis: inRedis } = await this.runFrom((c) => c.del(key));
    if (!inRedis) this.forgetInRedisLater(key);
  }

  hit(key: string, windowSeconds: number) {
    return this.run((c) => c.hit(key, windowSeconds));
  }

  /** Whether Redis answers now; while the breaker is open this says false without waiting on Redis. */
  async ping(): Promise<boolean> {
    const { redis } = await this.runFrom(async (c) => {
      if (c === this.primary && !(await c.ping())) throw new Error("redis ping failed");
    });
    return redis;
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
