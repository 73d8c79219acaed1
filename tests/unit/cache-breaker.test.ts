// The Redis circuit breaker (ADR 045) over a scripted stand-in for Redis and a fake clock: which calls reach
// Redis in each state, that nothing waits longer than the command timeout, and that rate limits keep counting
// in process memory while Redis is away.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CircuitBreaker, ResilientCache } from "../../server/cache/breaker";
import { MemoryCache, type Cache } from "../../server/cache";
import { rateLimit } from "../../server/kernel/rate-limit";

type Mode = "up" | "down" | "hang";

/** A Redis stand-in: a memory cache that can be made to fail at once or never answer; counts the calls. */
class ScriptedRedis implements Cache {
  readonly kind = "redis" as const;
  mode: Mode = "up";
  calls = 0;
  store = new MemoryCache();
  private gate<T>(op: () => Promise<T>): Promise<T> {
    this.calls++;
    if (this.mode === "down") return Promise.reject(new Error("Stream isn't writeable"));
    if (this.mode === "hang") return new Promise<T>(() => undefined);
    return op();
  }
  getJson<T>(key: string) {
    return this.gate(() => this.store.getJson<T>(key));
  }
  setJson(key: string, value: unknown, ttl: number) {
    return this.gate(() => this.store.setJson(key, value, ttl));
  }
  del(key: string) {
    return this.gate(() => this.store.del(key));
  }
  hit(key: string, windowSeconds: number) {
    return this.gate(() => this.store.hit(key, windowSeconds));
  }
  ping() {
    return this.gate(async () => true);
  }
  async close() {}
}

describe("circuit breaker states", () => {
  it("opens on a failure, lets one probe through when half-open, closes on its success", () => {
    let now = 0;
    const b = new CircuitBreaker({ openMs: 1000, now: () => now });
    expect(b.state).toBe("closed");
    expect(b.allow()).toBe(true);
    expect(b.failure()).toBe(true);
    expect(b.state).toBe("open");
    expect(b.allow()).toBe(false);
    now = 999;
    expect(b.allow()).toBe(false);
    now = 1000;
    expect(b.state).toBe("half-open");
    expect(b.allow()).toBe(true); // the probe
    expect(b.allow()).toBe(false); // everyone else while it runs
    expect(b.failure()).toBe(false); // already open: not a new outage
    expect(b.state).toBe("open");
    now = 2000;
    expect(b.allow()).toBe(true);
    expect(b.success()).toBe(true); // closed again: Redis is back
    expect(b.state).toBe("closed");
    expect(b.success()).toBe(false);
  });
});

describe("Redis behind the breaker", () => {
  let redis: ScriptedRedis;
  let cache: ResilientCache;
  let events: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    redis = new ScriptedRedis();
    events = [];
    cache = new ResilientCache(redis, new MemoryCache(), { timeoutMs: 200, openMs: 1000, onStateChange: (e) => events.push(e) });
  });
  afterEach(() => vi.useRealTimers());

  it("serves from memory at once while Redis refuses, and probes it again after the open period", async () => {
    await cache.setJson("k", 1, 60);
    expect(await cache.getJson("k")).toBe(1);
    redis.mode = "down";
    expect(await cache.getJson("k")).toBeUndefined(); // Redis's copy is out of reach; nothing throws
    expect(events).toEqual(["unavailable"]);
    const before = redis.calls;
    await cache.setJson("k", 2, 60);
    expect(await cache.getJson("k")).toBe(2);
    expect(redis.calls).toBe(before); // open: Redis is not asked at all
    expect(await cache.ping()).toBe(false);

    vi.advanceTimersByTime(1000);
    redis.mode = "up";
    expect(await cache.ping()).toBe(true); // the probe reached Redis and closed the breaker
    expect(events).toEqual(["unavailable", "recovered"]);
    expect(cache.breaker.state).toBe("closed");
    for (let i = 0; i < 5; i++) await Promise.resolve();
    // Redis's copy is older than the outage's write: deleted on its return, so the next read misses (and the
    // caller recomputes) rather than serving the stale value.
    expect(await redis.store.getJson("k")).toBeUndefined();
    expect(await cache.getJson("k")).toBeUndefined();
  });

  it("stops waiting on a Redis that does not answer after the command timeout", async () => {
    redis.mode = "hang";
    const pending = cache.hit("rl:x", 60);
    vi.advanceTimersByTime(201); // the timeout, then its setImmediate
    expect(await pending).toEqual({ count: 1, resetInSeconds: 60 });
    expect(cache.breaker.state).toBe("open");
    // Later calls are answered without a timer at all.
    expect(await cache.hit("rl:x", 60)).toMatchObject({ count: 2 });
  });

  it("keeps rate limits enforced in this process during the outage", async () => {
    redis.mode = "down";
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await rateLimit(cache, "signin:ip:1", 3, 60)).allowed);
    expect(results).toEqual([true, true, true, false]);
  });

  it("replays deletes made during the outage when Redis returns, so no stale value is served", async () => {
    await cache.setJson("user:1", { name: "old" }, 600);
    redis.mode = "down";
    await cache.del("user:1");
    expect(await cache.getJson("user:1")).toBeUndefined();
    vi.advanceTimersByTime(1000);
    redis.mode = "up";
    await cache.ping(); // the probe closes the breaker; the delete is replayed in the background
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(await redis.store.getJson("user:1")).toBeUndefined();
  });

  it("drops what it kept in memory when Redis returns: Redis is the one source again", async () => {
    redis.mode = "down";
    await cache.setJson("social:pending:a", { id: 1 }, 600);
    expect(await cache.getJson("social:pending:a")).toEqual({ id: 1 });
    vi.advanceTimersByTime(1000);
    redis.mode = "up";
    expect(await cache.getJson("social:pending:a")).toBeUndefined();
    expect(await cache.fallback.getJson("social:pending:a")).toBeUndefined();
    await cache.setJson("social:pending:a", { id: 2 }, 600);
    expect(await redis.store.getJson("social:pending:a")).toEqual({ id: 2 });
  });

  it("lets only one probe reach a still-dead Redis when half-open", async () => {
    redis.mode = "down";
    await cache.getJson("a");
    vi.advanceTimersByTime(1000);
    const before = redis.calls;
    await Promise.all([cache.getJson("a"), cache.getJson("b"), cache.hit("c", 60)]);
    expect(redis.calls - before).toBe(1);
    expect(cache.breaker.state).toBe("open");
  });
});
