import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createAppContext } from "../../server/context";
import { createHttpApp } from "../../server/app";
import { openPostgres } from "../../server/db";
import { MemoryCache } from "../../server/cache";
import { createLogger } from "../../server/logger";
import { testEnv } from "../helpers/context";

// A portal whose database cannot be reached (nothing listens on the port).
let server: http.Server;
let base: string;
beforeAll(async () => {
  const database = await openPostgres("postgres://nobody@127.0.0.1:1/none", 1);
  const env = testEnv();
  const ctx = createAppContext({
    env,
    db: database.db,
    dbKind: "postgres",
    cache: new MemoryCache(),
    logger: createLogger("silent"),
    secrets: { cookieSecret: "x" },
  });
  const build = await import(/* @vite-ignore */ path.resolve("build/server/index.js"));
  const app = createHttpApp(ctx, { build, clientDir: path.resolve("build/client"), rootDir: path.resolve(".") });
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("database outage", () => {
  it("answers pages with a translated 503 and Retry-After, and /healthz with 503", async () => {
    const first = await fetch(`${base}/br/login`);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("30");
    expect(await first.text()).toContain('lang="pt-BR"');
    const second = await fetch(`${base}/br/login`);
    expect(second.status).toBe(503);
    expect(await second.text()).toContain("Serviço temporariamente indisponível");
    const api = await fetch(`${base}/api/application`);
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({ error: "service-unavailable" });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "down", database: { ok: false } });
  });
});
