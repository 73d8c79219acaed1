// Pool starvation is not an outage (issue 20 item 4, ADR 048). The built portal in process, under light steady
// load (healthz, static files, a signed-in researcher's API and pages), while a burst holds every database
// client busy for 5 s with real work:
// - PostgreSQL: the test takes the row lock of an invoice from a connection of its own (`select … for update`),
//   then pays that invoice through the API more times than the pool has clients. Each payment holds a pool client
//   while its transaction waits for the lock (server/payments/service.ts), so the whole pool waits on it.
// - PGlite: its one connection is the queue; a transaction on the portal's own handle holds it for 5 s.
// What must hold: what needs no database (static files, /healthz) keeps answering, and /healthz says the database
// is ok; the portal never marks the database down; a request that waited too long for a client answers 503 with
// Retry-After (API: {error:"service-unavailable"}; pages: the translated unavailable page), never a 500; the
// moment the burst ends, everything is answered 200 again. A timeline (requests per second by status) is printed.
// PostgreSQL is the one of DATABASE_URL when it is set (the PostgreSQL run of CI: a database of its own there),
// otherwise one this test starts on a spare port; PGlite runs in both runs (it is in-process).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { sql } from "kysely";
import { startPortal, type RunningPortal } from "../../server/boot";
import { testEnv } from "../helpers/context";
import { Client, RELAXED_RATE_LIMITS, signIn } from "../helpers/portal";
import { createInvoice, createResearcher } from "../helpers/factories";
import { withDatabase } from "../helpers/template";
import { timeline, type Sample } from "./load";
import { OwnPostgres, sparePort } from "./services";

const HOLD_MS = 5000;
const BEFORE_MS = 2000;
const AFTER_MS = 4000;
/** "Within about a second" of the burst's end. */
const RECOVERY_MS = 1000;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer extends Sample {
  /** When the request was sent (ms since the load started). */
  sent: number;
  body?: unknown;
  text?: string;
}

/** A few clients in loops, each answer recorded with its send and answer times. */
class SteadyLoad {
  readonly samples: Answer[] = [];
  readonly t0 = Date.now();
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(private base: string) {}

  now() {
    return Date.now() - this.t0;
  }

  async call(client: Client, what: string, path: string, init: RequestInit = {}): Promise<Answer> {
    const sent = this.now();
    let answer: Answer;
    try {
      const res = await client.request(path, { ...init, signal: AbortSignal.timeout(20_000) });
      const text = await res.text();
      answer = { sent, at: this.now(), ms: this.now() - sent, status: res.status, what, path, retryAfter: res.headers.get("retry-after") };
      if (res.headers.get("content-type")?.includes("json")) answer.body = safeJson(text);
      else if (res.status >= 500) answer.text = text;
    } catch {
      answer = { sent, at: this.now(), ms: this.now() - sent, status: 0, what, path, retryAfter: null };
    }
    this.samples.push(answer);
    return answer;
  }

  /** Healthz and static files (no database needed), and a signed-in researcher's API reads and dashboard. */
  start(member: Client) {
    const anonymous = new Client(this.base);
    this.loop(() => this.call(anonymous, "healthz", "/healthz"), 100);
    this.loop((n) => this.call(anonymous, "static", n % 2 ? "/favicon.svg" : "/locales/en_US/common.json"), 100);
    this.loop(() => this.call(member, "api", "/api/order/search?page=1"), 50);
    this.loop(() => this.call(member, "api", "/api/invoice/load"), 50);
    this.loop(() => this.call(member, "page", "/en/researcher"), 50);
    // A client-side navigation's data request (single fetch) of the same page.
    this.loop(() => this.call(member, "data", "/en/researcher.data"), 50);
  }

  private loop(body: (n: number) => Promise<unknown>, gapMs: number) {
    this.loops.push(
      (async () => {
        for (let n = 0; this.running; n++) {
          await body(n);
          await pause(gapMs);
        }
      })(),
    );
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
}

const describeAnswer = (a: Answer) => `${a.status} ${a.what} ${a.path} sent ${a.sent} ms, ${a.ms} ms`;

interface Burst {
  load: SteadyLoad;
  /** Every client busy from here… */
  busyAt: number;
  /** …to here. */
  releasedAt: number;
  /** Moments the portal believed the database down. */
  downAt: number[];
  events: { at: number; label: string }[];
}

/** Steady load for BEFORE_MS, `hold` until every client is busy and HOLD_MS more, then AFTER_MS of load. */
async function burst(
  name: string,
  portal: RunningPortal,
  member: Client,
  hold: (load: SteadyLoad, mark: (label: string) => void) => Promise<{ release(): Promise<void>; done: Promise<unknown> }>,
): Promise<Burst> {
  const load = new SteadyLoad(portal.url);
  const downAt: number[] = [];
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      if (portal.ctx.health.databaseDown) downAt.push(load.now());
      await pause(20);
    }
  })();
  const events: Burst["events"] = [];
  const mark = (label: string) => events.push({ at: load.now(), label });
  load.start(member);
  await pause(BEFORE_MS);
  const held = await hold(load, mark);
  const busyAt = load.now();
  mark(`every client busy`);
  await pause(HOLD_MS);
  await held.release();
  const releasedAt = load.now();
  mark("burst ends");
  await held.done;
  await pause(AFTER_MS);
  mark("load stops");
  await load.stop();
  watching = false;
  await watcher;
  const s = load.samples;
  const byStatus: Record<string, number> = {};
  for (const x of s) byStatus[x.status] = (byStatus[x.status] ?? 0) + 1;
  console.log(`\n${name} pool burst: ${s.length} requests, statuses ${JSON.stringify(byStatus)}\n` + timeline(s, events, 0, load.now()));
  return { load, busyAt, releasedAt, downAt, events };
}

/** What must hold of every burst, whatever the database. */
function expectNoOutage(b: Burst) {
  const s = b.load.samples;
  expect(
    s.filter((x) => x.status === 0 || (x.status >= 500 && x.status !== 503)).map(describeAnswer),
    "no 500, no dropped request",
  ).toEqual([]);
  expect(b.downAt, "moments the portal believed the database down").toEqual([]);
  // What needs no database client answers through the burst, at once; /healthz says the database is ok.
  const during = (x: Answer) => x.sent >= b.busyAt && x.sent < b.releasedAt;
  const noDb = s.filter((x) => (x.what === "healthz" || x.what === "static") && during(x));
  expect(noDb.length).toBeGreaterThan(20);
  for (const x of noDb) {
    expect(x.status, describeAnswer(x)).toBe(200);
    expect(x.ms, describeAnswer(x)).toBeLessThan(1000);
    if (x.what === "healthz") expect(x.body, describeAnswer(x)).toMatchObject({ database: { ok: true } });
  }
  // Every 503 is a shed request: Retry-After, and the outage path's answer (JSON error, translated page).
  for (const x of s.filter((y) => y.status === 503)) {
    expect(x.retryAfter, describeAnswer(x)).toMatch(/^\d+$/);
    if (x.path.startsWith("/api/")) expect(x.body, describeAnswer(x)).toEqual({ error: "service-unavailable" });
    else if (x.what === "page") expect(x.text, describeAnswer(x)).toContain("Service temporarily unavailable");
  }
  // Once the burst ends, everything that needs the database is answered 200 at once.
  const after = s.filter((x) => ["api", "page", "data"].includes(x.what) && x.sent >= b.releasedAt);
  expect(after.length).toBeGreaterThan(10);
  expect(after.filter((x) => x.status !== 200).map(describeAnswer), "answers after the burst").toEqual([]);
  const first = after.reduce((a, x) => (x.at < a.at ? x : a));
  console.log(`first database read after the burst answered ${first.at - b.releasedAt} ms after it ended`);
  expect(first.at - b.releasedAt).toBeLessThan(RECOVERY_MS);
}

describe("PostgreSQL: every pool client waiting on a payment's row lock for 5 s", () => {
  let own: OwnPostgres | null = null;
  let dropDatabase: (() => Promise<void>) | null = null;
  let portal: RunningPortal;
  let dataDir: string;
  let databaseUrl: string;

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      const name = `${new URL(process.env.DATABASE_URL).pathname.slice(1)}_pool_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      await admin.end();
      databaseUrl = withDatabase(process.env.DATABASE_URL, name);
      dropDatabase = async () => {
        const again = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await again.connect();
        await again.query(`drop database if exists "${name}" with (force)`);
        await again.end();
      };
    } else {
      own = new OwnPostgres(await sparePort());
      await own.init();
      await own.start();
      databaseUrl = own.url;
    }
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-pool-"));
    const env = testEnv({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      MAIL_PICKUP_DIR: path.join(dataDir, "mail"),
      CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
    });
    portal = await startPortal({ env, rootDir: path.resolve(".") });
  }, 120_000);

  afterAll(async () => {
    await portal?.stop();
    await dropDatabase?.();
    await own?.remove();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("shed with 503 + Retry-After only what waited too long; healthz ok throughout; 200 again within a second; one ledger row", async () => {
    const poolSize = (portal.ctx.env as { DATABASE_POOL_SIZE?: number }).DATABASE_POOL_SIZE ?? 10;
    const researcher = await createResearcher(portal.ctx);
    const { invoice } = await createInvoice(portal.ctx, researcher);
    const us = await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
    const member = await signIn(portal, researcher);
    const payer = await signIn(portal, researcher);
    const locker = new pg.Client({ connectionString: databaseUrl });
    const watch = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    await watch.connect();
    const pays: Answer[] = [];
    try {
      const b = await burst("PostgreSQL", portal, member, async (load, mark) => {
        await locker.query("begin");
        await locker.query("select number from invoices where number = $1 for update", [invoice.number]);
        mark(`invoice row locked; ${poolSize + 5} payments of it sent`);
        const done = Promise.all(
          Array.from({ length: poolSize + 5 }, (_, i) =>
            load
              .call(payer, "pay", "/api/payoff/payment", {
                method: "POST",
                headers: { "content-type": "application/json", "Idempotency-Key": `pool-burst-${i}-${randomBytes(4).toString("hex")}` },
                body: JSON.stringify({
                  paymentMethodId: 3,
                  acceptedTermsAndConditions: true,
                  additionalData: { payoffReceiptCodes: [invoice.number] },
                  creditCard: { nonce: `fake-valid-nonce~pool-burst-${i}`, currency: "USD" },
                  billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: us.id } },
                }),
              })
              .then((a) => pays.push(a)),
          ),
        );
        // Every client of the pool is a payment's transaction waiting for the lock.
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { rows } = await watch.query(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          if (rows[0].n >= poolSize) break;
          if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${poolSize} clients wait on the lock`);
          await pause(20);
        }
        return { release: () => locker.query("rollback").then(() => undefined), done };
      });
      expectNoOutage(b);
      // Requests that waited too long for a client were shed: some, each a 503, and only during the burst.
      const shed = b.load.samples.filter((x) => x.status === 503);
      expect(shed.length, "requests shed during the burst").toBeGreaterThan(0);
      // …of every kind: API, page and single-fetch data requests, and payments that found no client.
      expect(new Set(shed.map((x) => x.what))).toEqual(new Set(["api", "page", "data", "pay"]));
      for (const x of shed) expect(x.sent, describeAnswer(x)).toBeLessThan(b.releasedAt);
      // The payments: each answered (paid, refused as paid or in progress, or shed), and the invoice paid once.
      expect(pays.length).toBe(poolSize + 5);
      for (const p of pays) expect([200, 400, 409, 422, 503], describeAnswer(p)).toContain(p.status);
      const ledger = await portal.ctx.db.selectFrom("invoice_payments").select("id").where("invoice_number", "=", invoice.number).execute();
      expect(ledger, "ledger rows of the invoice").toHaveLength(1);
      const paid = await portal.ctx.db
        .selectFrom("invoices")
        .select("status")
        .where("number", "=", invoice.number)
        .executeTakeFirstOrThrow();
      expect(paid.status).toBe("paid");
      // How many of the payments were charged is the payments area's (ADR 048 "Left open": two keys racing past the
      // in-progress check while the first payment is being settled); printed here, not asserted.
      const charged = await portal.ctx.db
        .selectFrom("payments")
        .select("id")
        .where("status", "=", "succeeded")
        .where("user_id", "=", researcher.id)
        .execute();
      const statuses: Record<number, number> = {};
      for (const p of pays) statuses[p.status] = (statuses[p.status] ?? 0) + 1;
      console.log(`payments of the locked invoice: answers ${JSON.stringify(statuses)}, ${charged.length} charged`);
    } finally {
      await locker.end().catch(() => undefined);
      await watch.end().catch(() => undefined);
    }
  }, 90_000);
});

describe("PGlite: its one connection held by a transaction for 5 s", () => {
  let portal: RunningPortal;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-pool-pglite-"));
    const env = testEnv({
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      MAIL_PICKUP_DIR: path.join(dataDir, "mail"),
      CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
    });
    portal = await startPortal({ env, rootDir: path.resolve(".") });
  }, 120_000);

  afterAll(async () => {
    await portal?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("the queue waits and is served the moment the connection frees; healthz ok throughout; never down, never a 500", async () => {
    expect(portal.ctx.dbKind).toBe("pglite");
    const member = await signIn(portal, await createResearcher(portal.ctx));
    const b = await burst("PGlite", portal, member, async (_load, mark) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      // What a long transaction of the portal does to PGlite: every other query queues behind it.
      const done = portal.ctx.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        holding();
        await released;
      });
      await held;
      mark("a transaction holds the connection");
      return { release: async () => release(), done };
    });
    expectNoOutage(b);
    // Nothing is shed on PGlite (its queue has no wait limit): the requests that queued were answered after it.
    // How many are sent during the hold depends on how many of the load's clients get an answer that needs no
    // database in those 5 s (2 to 6 seen on a 2-core machine): at least one must have queued, and every one is a 200.
    const queued = b.load.samples.filter((x) => ["api", "page", "data"].includes(x.what) && x.sent >= b.busyAt && x.sent < b.releasedAt);
    expect(queued.length).toBeGreaterThan(0);
    for (const x of queued) expect(x.status, describeAnswer(x)).toBe(200);
    const healthz = b.load.samples.filter((x) => x.what === "healthz" && x.sent >= b.busyAt + 2500 && x.sent < b.releasedAt);
    expect(
      healthz.some((x) => (x.body as { database?: { busy?: boolean } }).database?.busy),
      "healthz says busy",
    ).toBe(true);
  }, 90_000);
});
