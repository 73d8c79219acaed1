// Fault tests (issue 14, ADR 045): the built portal on a Redis and a PostgreSQL that this test starts on spare
// ports, under steady load (page and API reads, sign-ins, orders placed and paid, manuscripts uploaded). Each
// service is stopped for 10 s and started again. What must hold:
// - never a 500; during the Redis outage no 5xx at all and every answer within the command timeout's reach;
// - 503 (Retry-After; API {error:"service-unavailable"}) only while PostgreSQL is down;
// - recovery within 5 s of the restart;
// - nothing lost or duplicated: every write answered 2xx is in the database exactly once, no order, payment,
//   ledger row or uploaded file is duplicated or half-made.
// A timeline (requests per second by status) is printed for each outage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { startPortal, type RunningPortal } from "../../server/boot";
import type { ResilientCache } from "../../server/cache/breaker";
import { testEnv } from "../helpers/context";
import { RELAXED_RATE_LIMITS } from "../helpers/portal";
import { createResearcher, type TestUser } from "../helpers/factories";
import { Load, timeline, type Sample } from "./load";
import { OwnPostgres, OwnRedis, sparePort } from "./services";

const DOWN_MS = 10_000;
const BEFORE_MS = 4000;
const AFTER_MS = 6000;
const RECOVERY_MS = 5000;

let redis: OwnRedis;
let pg: OwnPostgres;
let portal: RunningPortal;
let dataDir: string;
let member: TestUser;
const writers: TestUser[] = [];
const ids = { usCountry: 0, areaOfStudy: 0 };

beforeAll(async () => {
  redis = new OwnRedis(await sparePort());
  pg = new OwnPostgres(await sparePort());
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-fault-data-"));
  await redis.start();
  await pg.init();
  await pg.start();
  const env = testEnv({
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    DATA_DIR: dataDir,
    MAIL_PICKUP_DIR: path.join(dataDir, "mail"),
    CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
  });
  portal = await startPortal({ env, rootDir: path.resolve(".") });
  member = await createResearcher(portal.ctx);
  // One fresh writer per order (uploads are limited per user, 30 in 10 minutes): some made ahead, the rest
  // while the load runs.
  for (let i = 0; i < 30; i++) writers.push(await createResearcher(portal.ctx));
  const db = portal.ctx.db;
  ids.usCountry = (await db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow()).id;
  ids.areaOfStudy = (await db.selectFrom("areas_of_study").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
}, 120_000);

afterAll(async () => {
  await portal?.stop();
  await redis?.remove();
  await pg?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outage {
  load: Load;
  stoppedAt: number;
  startedAt: number;
  events: { at: number; label: string }[];
}

/** Load for BEFORE_MS, `stop` the service, DOWN_MS later `start` it, load for AFTER_MS more; prints the timeline. */
async function outage(
  name: string,
  stop: (mark: (label: string) => void) => Promise<void>,
  start: () => Promise<void>,
  watch?: (load: Load, startedAt: number) => void,
): Promise<Outage> {
  const invoiceOf = async (externalId: string) =>
    (
      await portal.ctx.db
        .selectFrom("invoices as i")
        .innerJoin("orders as o", "o.id", "i.order_id")
        .select("i.number")
        .where("o.external_id", "=", externalId)
        .executeTakeFirst()
    )?.number;
  const nextWriter = async () => writers.shift() ?? (await createResearcher(portal.ctx));
  const load = new Load(portal.url, { ...member }, nextWriter, invoiceOf, ids);
  load.start();
  await pause(BEFORE_MS);
  const events: Outage["events"] = [];
  const stoppedAt = load.now();
  events.push({ at: stoppedAt, label: `${name} down` });
  await stop((label) => events.push({ at: load.now(), label }));
  await pause(DOWN_MS - (load.now() - stoppedAt));
  const startedAt = load.now();
  await start();
  events.push({ at: startedAt, label: `${name} started` }, { at: load.now(), label: `${name} accepts connections` });
  watch?.(load, startedAt);
  await pause(AFTER_MS);
  events.push({ at: load.now(), label: "load stops (writes in progress finish)" });
  await load.stop();
  const s = load.samples;
  const byStatus = countBy(s, (x) => String(x.status));
  console.log(
    `\n${name} outage: ${s.length} requests, ${load.writes.filter((w) => w.paid).length} orders placed and paid, statuses ${JSON.stringify(byStatus)}\n` +
      timeline(s, events, 0, load.now()),
  );
  return { load, stoppedAt, startedAt, events };
}

function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + 1;
  return out;
}

const describeSample = (s: Sample) => `${s.status} ${s.what} ${s.path} at ${s.at} ms`;

/** Every write answered 2xx is in the database exactly once; nothing is duplicated or half-made. */
async function expectWritesIntact(load: Load) {
  const db = portal.ctx.db;
  const writes = load.writes;
  expect(writes.filter((w) => w.paid).length, "orders placed and paid through the outage").toBeGreaterThan(2);
  const markers = writes.map((w) => w.marker);

  const orders = await db.selectFrom("orders").select(["id", "title", "external_id"]).where("title", "in", markers).execute();
  const ordersBy = countBy(orders, (o) => o.title);
  for (const w of writes) {
    if (w.placed) expect(ordersBy[w.marker], `order ${w.marker}`).toBe(1);
    else expect(ordersBy[w.marker] ?? 0, `order ${w.marker} (not confirmed)`).toBeLessThanOrEqual(1);
    if (w.placed) expect(orders.find((o) => o.title === w.marker)?.external_id).toBe(w.externalId);
  }

  const invoices = orders.length
    ? await db
        .selectFrom("invoices")
        .select(["number", "order_id", "status"])
        .where(
          "order_id",
          "in",
          orders.map((o) => o.id),
        )
        .execute()
    : [];
  const invoicesBy = countBy(invoices, (i) => String(i.order_id));
  for (const o of orders) expect(invoicesBy[o.id], `invoices of ${o.title}`).toBe(1);

  const numbers = invoices.map((i) => i.number);
  const ledger = numbers.length
    ? await db.selectFrom("invoice_payments").select("invoice_number").where("invoice_number", "in", numbers).execute()
    : [];
  const ledgerBy = countBy(ledger, (l) => l.invoice_number);
  const payments = await db
    .selectFrom("payments")
    .select(["status", "invoice_numbers"])
    .where(sql<boolean>`invoice_numbers ?| ${sql.val(numbers.length ? numbers : ["none"])}::text[]`)
    .execute();
  const paymentsBy = countBy(
    payments.flatMap((p) => (p.invoice_numbers as string[]).map((n) => ({ n, status: p.status }))),
    (x) => x.n,
  );
  for (const i of invoices) {
    const w = writes.find((x) => x.invoiceNumber === i.number);
    expect(ledgerBy[i.number] ?? 0, `ledger rows of ${i.number}`).toBeLessThanOrEqual(1);
    expect(paymentsBy[i.number] ?? 0, `payments of ${i.number}`).toBeLessThanOrEqual(1);
    if (w?.paid) {
      expect(ledgerBy[i.number], `ledger row of paid ${i.number}`).toBe(1);
      expect(i.status).toBe("paid");
      expect(payments.find((p) => (p.invoice_numbers as string[]).includes(i.number))?.status).toBe("succeeded");
    }
  }

  const files = await db
    .selectFrom("files")
    .select(["original_name", "stored_name", "size_bytes"])
    .where(
      "original_name",
      "in",
      markers.map((m) => `${m}.docx`),
    )
    .where("deleted_at", "is", null)
    .execute();
  const filesBy = countBy(files, (f) => f.original_name);
  for (const w of writes) {
    if (w.uploaded) expect(filesBy[`${w.marker}.docx`], `file ${w.marker}`).toBe(1);
    else expect(filesBy[`${w.marker}.docx`] ?? 0).toBeLessThanOrEqual(1);
  }
  // Every stored file is whole, and no file on disk lacks its row (an upload cut by the outage left nothing).
  for (const f of files) {
    const onDisk = fs.statSync(path.join(dataDir, "files", f.stored_name.slice(0, 2), f.stored_name));
    expect(onDisk.size).toBe(Number(f.size_bytes));
  }
  const known = new Set((await db.selectFrom("files").select("stored_name").execute()).map((f) => f.stored_name));
  const root = path.join(dataDir, "files");
  const onDisk = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((d) => d !== "tmp")
        .flatMap((d) => fs.readdirSync(path.join(root, d)))
    : [];
  expect(
    onDisk.filter((name) => !known.has(name)),
    "files on disk without a row",
  ).toEqual([]);
}

describe("fault tests", () => {
  it("Redis frozen for 5 s then stopped for 5 s: no 5xx, answers within the breaker's timeout, back on Redis within 5 s, no write lost", async () => {
    const cache = portal.ctx.cache as ResilientCache;
    expect(cache.kind).toBe("redis");
    const back = { at: null as number | null };
    // The first half of the outage Redis is frozen (connections open, no answers: the command timeout opens the
    // breaker), the second half it is gone (connections refused: ioredis fails commands at once).
    const { load, stoppedAt, startedAt } = await outage(
      "Redis",
      async (mark) => {
        redis.freeze();
        mark("Redis frozen (SIGSTOP)");
        setTimeout(() => void redis.stop().then(() => mark("Redis killed")), DOWN_MS / 2);
      },
      () => redis.start(),
      (l, started) => {
        void (async () => {
          while (back.at === null && l.now() - started < 15_000) {
            if (cache.breaker.state === "closed" && (await cache.ping())) back.at = l.now();
            else await pause(50);
          }
        })();
      },
    );
    const s = load.samples;
    expect(s.filter((x) => x.status >= 500 || x.status === 0).map(describeSample)).toEqual([]);
    // Within one request timeout: nothing waited on the dead Redis for long.
    const during = s.filter((x) => x.at >= stoppedAt && x.at <= startedAt + 1000 && !x.what.startsWith("write upload"));
    expect(during.length).toBeGreaterThan(50);
    const before = s.filter((x) => x.at < stoppedAt && !x.what.startsWith("write upload"));
    const p95 = (xs: Sample[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
    console.log(
      `latency before the outage p95 ${p95(before)} ms, max ${Math.max(...before.map((x) => x.ms))} ms; ` +
        `during it p95 ${p95(during)} ms, max ${Math.max(...during.map((x) => x.ms))} ms`,
    );
    expect(Math.max(...during.map((x) => x.ms))).toBeLessThan(3000);
    expect(back.at, "Redis in use again").not.toBeNull();
    const backIn = back.at! - startedAt;
    console.log(`Redis in use again ${backIn} ms after it was started`);
    expect(backIn).toBeLessThan(RECOVERY_MS);
    const health = await (await fetch(`${portal.url}/healthz`)).json();
    expect(health).toMatchObject({ status: "ok", redis: { configured: true, ok: true } });
    await expectWritesIntact(load);
  }, 120_000);

  it("PostgreSQL stopped for 10 s: 503 with Retry-After only while it is down, no 500, back within 5 s, no write lost", async () => {
    const { load, stoppedAt, startedAt } = await outage(
      "PostgreSQL",
      () => pg.stop(),
      () => pg.start(),
    );
    const s = load.samples;
    expect(s.filter((x) => (x.status >= 500 && x.status !== 503) || x.status === 0).map(describeSample)).toEqual([]);
    const unavailable = s.filter((x) => x.status === 503 && x.path !== "/healthz");
    expect(unavailable.length, "503s while PostgreSQL was down").toBeGreaterThan(5);
    for (const x of unavailable) {
      expect(x.at, describeSample(x)).toBeGreaterThanOrEqual(stoppedAt);
      expect(x.at, describeSample(x)).toBeLessThan(startedAt + RECOVERY_MS);
      expect(x.retryAfter, describeSample(x)).toMatch(/^\d+$/);
      if (x.path.startsWith("/api/")) expect(x.body503, describeSample(x)).toEqual({ error: "service-unavailable" });
    }
    // /healthz says 503 (down) too, and only then.
    for (const x of s.filter((y) => y.status === 503 && y.path === "/healthz")) expect(x.at).toBeLessThan(startedAt + RECOVERY_MS);
    const firstOk = s.find((x) => x.at > startedAt && x.status === 200 && x.what.startsWith("read"));
    expect(firstOk, "a page read answered after the restart").toBeDefined();
    console.log(`first page read answered 200 ${firstOk!.at - startedAt} ms after PostgreSQL was started`);
    expect(firstOk!.at - startedAt).toBeLessThan(RECOVERY_MS);
    await expectWritesIntact(load);
  }, 120_000);
});
