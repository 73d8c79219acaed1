import { afterAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { createCache, MemoryCache, type Cache } from "../../server/cache";
import { rateLimit } from "../../server/kernel/rate-limit";

const caches: Cache[] = [new MemoryCache()];
const redisUrl = process.env.REDIS_URL;
afterAll(async () => {
  for (const c of caches) await c.close();
});

describe.each([["memory"], ...(redisUrl ? [["redis"]] : [])])("%s cache", (kind) => {
  const get = async () => {
    if (kind === "memory") return caches[0];
    const c = await createCache(redisUrl, `test:${randomBytes(4).toString("hex")}:`);
    caches.push(c);
    return c;
  };

  it("stores JSON with a time to live", async () => {
    const cache = await get();
    expect(cache.kind).toBe(kind);
    await cache.setJson("k", { a: 1 }, 60);
    expect(await cache.getJson("k")).toEqual({ a: 1 });
    await cache.del("k");
    expect(await cache.getJson("k")).toBeUndefined();
    await cache.setJson("short", 1, 1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.getJson("short")).toBeUndefined();
  });

  it("counts rate-limit hits in a window", async () => {
    const cache = await get();
    for (let i = 1; i <= 3; i++) expect((await rateLimit(cache, "x", 3, 60)).allowed).toBe(true);
    const fourth = await rateLimit(cache, "x", 3, 60);
    expect(fourth).toMatchObject({ allowed: false, count: 4 });
    expect(fourth.retryAfterSeconds).toBeGreaterThan(0);
    expect(fourth.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await cache.ping()).toBe(true);
  });
});
