// npm run bench (issue 26 §1, ADR 079): every main page of the built portal on real data, measured with autocannon
// beside two baselines of the page's own size in the same run — a bare React renderToString page (the physical
// floor) and the bare Remix page of the same build with no loader (/__bench/bare/{bytes}, the framework's floor) —
// with the database round trips each page makes, the wizard step and a card payment with 50 users thinking 1–3 s
// (event-loop delay, GC pauses and pool waits of the portal process beside them), and, with BENCH_PROFILE=1, a CPU
// profile of the three slowest pages. The machine is shared: compare the ratios of one run, not absolute numbers.
// Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_USERS (default 50),
// BENCH_USERS_SECONDS (default 20), BENCH_PROFILE=1, BENCH_PAGES (a regexp: only the pages whose name matches);
// DATABASE_URL (+ REDIS_URL) runs it on PostgreSQL in a database of its own (`portal_bench`, dropped and created
// again: the test database is never touched); WEB_CONCURRENCY (with DATABASE_URL and REDIS_URL) runs the portal as
// `npm start` would, in several processes (no event-loop figures then).
import http from "node:http";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import inspector from "node:inspector/promises";
import autocannon from "autocannon";
import pg from "pg";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { spawn, type ChildProcess } from "node:child_process";
import { startPortal } from "#server/boot";
import { readEnv } from "#server/env";
import { currentRequest } from "#server/request-context";
import { areaId, docx, fillDraft, jsonApi, placeByBankTransfer, registerResearcher } from "./api-fixtures";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const USERS = Number(process.env.BENCH_USERS ?? 50);
const USERS_SECONDS = Number(process.env.BENCH_USERS_SECONDS ?? 20);
const PROFILE = process.env.BENCH_PROFILE === "1";
const PROFILE_DIR = ".bench-prof";
const PAGES = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES, "i") : null;
// The bars of DESIGN §7 / issue 26 §2–3.
const BAR_BARE_REMIX = 0.6;
const BAR_RENDER_TO_STRING = 0.3;
const BAR_STEP_P99_MS = 50;

const RELAXED_RATE_LIMITS = JSON.stringify({
  signInPerMinute: 1e9,
  registrationsPerHour: 1e9,
  resetRequestsPerHour: 1e9,
  emailChecksPerHour: 1e9,
  mailPerRecipientPerHour: 1e9,
  mailPerUserPerHour: 1e9,
  grammarChecksPerAddressPerHour: 1e9,
  grammarChecksPerBrowserPerHour: 1e9,
  quotesPer10Minutes: 1e9,
});

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, url: string, opts: Partial<autocannon.Options> = {}, seconds = SECONDS): Promise<Result> {
  // Warm up (JIT, caches) before the measured run.
  await autocannon({ url, connections: 10, duration: 2, ...opts });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...opts });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

// ---- the processes: baseline, portal, and the portal's side of the bench (counters, stats) ---------------------

/** The renderToString floor's page: the same markup as app/routes/bench.bare.tsx, about `bytes` long. */
function baselinePage(bytes: number) {
  const rows = Math.max(1, Math.round(bytes / 120));
  return h("html", { lang: "en-US" }, [
    h("head", { key: "h" }, [h("meta", { key: "c", charSet: "utf-8" }), h("title", { key: "t" }, "Baseline")]),
    h("body", { key: "b" }, [
      h(
        "header",
        { key: "hd" },
        h(
          "nav",
          null,
          ["Home", "Orders", "Account"].map((x) => h("a", { key: x, href: `/${x}` }, x)),
        ),
      ),
      h(
        "main",
        { key: "m" },
        h(
          "form",
          { method: "post" },
          Array.from({ length: rows }, (_, i) =>
            h("div", { key: i, className: "field" }, [
              h("label", { key: "l", htmlFor: `f${i}` }, `Field ${i}`),
              h("input", { key: "i", id: `f${i}`, name: `f${i}`, defaultValue: "" }),
            ]),
          ),
        ),
      ),
      h("footer", { key: "f" }, "Footer"),
    ]),
  ]);
}

function serveBaseline() {
  const server = http.createServer((req, res) => {
    const bytes = Number((req.url ?? "/").slice(1)) || 15000;
    const html = "<!DOCTYPE html>" + renderToString(baselinePage(bytes));
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html);
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(`BENCH_URL http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`));
}

/** With LOG_SQL=1 server/db logs each query to stderr: the line is counted for the request it ran in, not printed. */
const sqlByRequest = new Map<string, number>();
function countSqlLines() {
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && chunk.startsWith("[sql ")) {
      const id = currentRequest()?.requestId;
      if (id) sqlByRequest.set(id, (sqlByRequest.get(id) ?? 0) + 1);
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}

/**
 * What the portal process tells the bench over IPC: event-loop delay, GC pauses and pool waits between
 * "stats-start" and "stats-stop"; with LOG_SQL=1, the queries each request made (by its X-Request-Id).
 */
function portalProbes(ctx: Awaited<ReturnType<typeof startPortal>>["ctx"]) {
  let loop = monitorEventLoopDelay({ resolution: 1 });
  const gc = { count: 0, ms: 0, max: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.ms += e.duration;
      gc.max = Math.max(gc.max, e.duration);
    }
  }).observe({ entryTypes: ["gc"] });
  const pool = { waits: [] as number[], maxWaiting: 0, sampler: undefined as NodeJS.Timeout | undefined };
  let profiler: inspector.Session | undefined;
  process.on("message", async (m: { id: number; cmd: string; arg?: string }) => {
    let value: unknown = null;
    if (m.cmd === "stats-start") {
      loop.disable();
      loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      Object.assign(gc, { count: 0, ms: 0, max: 0 });
      pool.waits = [];
      pool.maxWaiting = 0;
      pool.sampler = setInterval(() => {
        for (const p of requestPools) pool.maxWaiting = Math.max(pool.maxWaiting, p.waitingCount);
      }, 20);
    } else if (m.cmd === "stats-stop") {
      loop.disable();
      clearInterval(pool.sampler);
      const waits = pool.waits.sort((a, b) => a - b);
      const ms = (ns: number) => Math.round(ns / 1e4) / 100;
      value = {
        loop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
        gc: { count: gc.count, ms: Math.round(gc.ms), max: Math.round(gc.max * 10) / 10 },
        pool:
          ctx.dbKind === "postgres"
            ? {
                acquisitions: waits.length,
                p50: quantile(waits, 0.5),
                p99: quantile(waits, 0.99),
                max: quantile(waits, 1),
                maxWaiting: pool.maxWaiting,
              }
            : null,
      };
    } else if (m.cmd === "profile-start") {
      profiler = new inspector.Session();
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.setSamplingInterval", { interval: 200 });
      await profiler.post("Profiler.start");
    } else if (m.cmd === "profile-stop") {
      const { profile } = await profiler!.post("Profiler.stop");
      fs.writeFileSync(m.arg!, JSON.stringify(profile));
      profiler!.disconnect();
    } else if (m.cmd === "sql-count") {
      value = sqlByRequest.get(m.arg!) ?? 0;
    } else if (m.cmd === "country-id") {
      value = (await ctx.db.selectFrom("countries").select("id").where("iso2", "=", m.arg!).executeTakeFirstOrThrow()).id;
    } else if (m.cmd === "grammar-complete") {
      // The engine never runs in the bench (WORKERS=external): the report is given the state a finished one has,
      // as tests/http/grammar-check-pages.test.ts does.
      await ctx.db
        .updateTable("language_assessments")
        .set({
          score_status: "completed",
          error_count_status: "completed",
          score_tenths: 47,
          percentile: 22,
          words: 412,
          dialect: "american",
          error_count: JSON.stringify({ consistencySpellingTypos: 2, grammarMechanics: 1, phrasing: 0, punctuation: 3, wordChoice: 1 }),
          issues: JSON.stringify(
            Array.from({ length: 12 }, (_, i) => ({
              category: i % 2 ? "punctuation" : "consistencySpellingTypos",
              kind: i % 2 ? "Punctuation" : "Spelling",
              message: i % 2 ? "Remove the space before this comma." : "Did you mean “protein”?",
              suggestion: i % 2 ? "," : "protein",
              sentence: i % 2 ? "Their results was clear , and the method worked." : "The protien bound to the receptor.",
              start: i % 2 ? 23 : 4,
              end: i % 2 ? 25 : 11,
            })),
          ),
          completed_at: new Date(),
        })
        .where("id", "=", m.arg!)
        .execute();
    }
    process.send?.({ id: m.id, value });
  });
  return pool;
}

// The request pools of this process (not the health probe's single connection), seen by wrapping pg's connect:
// how long each acquisition waited, and how many waited at once (sampled).
const requestPools = new Set<pg.Pool>();
let poolWaits: { waits: number[] } | null = null;
function watchPgPools() {
  const connect = pg.Pool.prototype.connect as (this: pg.Pool, ...args: unknown[]) => unknown;
  pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    if (args.length || (this as unknown as { options: { max: number } }).options.max <= 1) return connect.apply(this, args);
    requestPools.add(this);
    const started = performance.now();
    return (connect.call(this) as Promise<pg.PoolClient>).then((client) => {
      poolWaits?.waits.push(performance.now() - started);
      return client;
    });
  } as typeof pg.Pool.prototype.connect;
}

async function servePortal() {
  watchPgPools();
  if (process.env.LOG_SQL) countSqlLines();
  const env = readEnv({ ...process.env, PORT: "0", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  const portal = await startPortal({ env });
  poolWaits = portalProbes(portal.ctx);
  process.on("SIGTERM", () => portal.stop().then(() => process.exit(0)));
  process.stdout.write(`BENCH_URL ${portal.url}\n`);
}

interface Target {
  url: string;
  proc: ChildProcess;
  /** Asks the portal process (IPC); null when it has no channel (the clustered `npm start`). */
  ask<T>(cmd: string, arg?: string): Promise<T | null>;
  stop(): Promise<void>;
}

/** Runs a target in its own process (so autocannon does not share its CPU) and waits for its URL. */
function child(args: string[], env: Record<string, string | undefined>, nodeFlags: string[] = []): Promise<Target> {
  return new Promise((resolve, reject) => {
    // An undefined value removes the variable (LOG_SQL of the caller's shell must not reach the measured process).
    const fullEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", ...env };
    for (const k of Object.keys(fullEnv)) if (fullEnv[k] === undefined) delete fullEnv[k];
    const proc: ChildProcess = spawn(process.execPath, [...nodeFlags, "--import", "tsx", ...args], {
      env: fullEnv,
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    let out = "";
    let asked = 0;
    const answers = new Map<number, (v: unknown) => void>();
    proc.on("message", (m: { id: number; value: unknown }) => answers.get(m.id)?.(m.value));
    const exited = new Promise<void>((r) => proc.once("exit", () => r()));
    const onExit = (code: number | null) => reject(new Error(`bench target exited with ${code}: ${out}`));
    proc.once("exit", onExit);
    proc.stdout!.on("data", (d) => {
      out += d;
      const m = /BENCH_URL (\S+)/.exec(out) ?? /Researcher portal is running at (\S+?)\/?\n[\s\S]*Stop with Ctrl\+C/.exec(out);
      if (!m) return;
      resolve({
        url: m[1].replace(/\/$/, ""),
        proc,
        ask: <T>(cmd: string, arg?: string) =>
          new Promise<T | null>((res) => {
            if (!proc.connected || args[0] !== "scripts/bench.ts") return res(null);
            const id = ++asked;
            answers.set(id, (v) => res(v as T));
            proc.send({ id, cmd, arg });
          }),
        stop: async () => {
          proc.off("exit", onExit);
          proc.kill("SIGTERM");
          await exited;
        },
      });
    });
  });
}

// ---- data: researchers, orders, invoices, a grammar report, digital jobs (through the JSON API) ------------------

const register = (base: string) => registerResearcher(base, "bench");
const api = jsonApi;

/** Places a bank-transfer order (an unpaid invoice) with its .docx as a browser would through the API. */
async function placeOrder(base: string, cookie: string, area: number, title: string, service: string) {
  await placeByBankTransfer(base, cookie, await fillDraft(base, cookie, { title, service, area }));
}

/** The researcher's unpaid invoice numbers (bank transfer leaves them unpaid), from the API's list. */
async function unpaidInvoices(base: string, cookie: string): Promise<string[]> {
  const numbers: string[] = [];
  for (let page = 1; page < 100; page++) {
    const load = await (await api(base, cookie)("GET", `/api/invoice/load?page=${page}`)).json();
    const list = (load.invoices ?? []) as { invoiceNumber: string; balance: number }[];
    if (!list.length) break;
    for (const i of list) if (i.balance > 0) numbers.push(i.invoiceNumber);
  }
  return numbers;
}

const cardPayment = (countryId: number, extra: Record<string, unknown>) => ({
  paymentMethodId: 3,
  acceptedTermsAndConditions: true,
  creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
  billingAddress: { name: "Bench", address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: countryId } },
  ...extra,
});

interface Fixture {
  researcher: string;
  tools: string;
  orderDetails: string;
  payPage: string;
  grammarReport: string;
  countryId: number;
}

/**
 * A signed-in researcher with 30 placed orders (the dashboard's first page; each with its .docx and bank-transfer
 * invoice), a finished grammar report, a digital-editing subscription with three edits and three translations.
 */
async function buildFixture(portal: Target): Promise<Fixture> {
  const base = portal.url;
  const researcher = await register(base);
  const area = await areaId(base, researcher);
  for (let i = 0; i < 30; i++) {
    await placeOrder(base, researcher, area, `Bench order ${i + 1}`, i % 3 ? "standard-editing" : "premium-editing");
  }
  const dashboard = await (await fetch(`${base}/en/researcher`, { headers: { cookie: researcher } })).text();
  const details = /href="(\/en\/researcher\/index\/details\/[^"/]+)/.exec(dashboard)?.[1];
  if (!details) throw new Error("bench: no order link on the dashboard");
  const [unpaid] = await unpaidInvoices(base, researcher);
  if (!unpaid) throw new Error("bench: no unpaid invoice");

  const upload = (field: string, extra: Record<string, string>) => {
    const fd = new FormData();
    fd.append(field, new Blob([new Uint8Array(docx())]), "manuscript.docx");
    for (const [k, v] of Object.entries(extra)) fd.append(k, v);
    return fd;
  };
  // The tools (a grammar report, digital jobs) are a second researcher's: uploads are limited to 30 in 10 minutes
  // per user, and the first spent them on the 30 orders.
  const tools = await register(base);
  const created = await fetch(`${base}/api/grammar-check/create`, {
    method: "POST",
    headers: { cookie: tools },
    body: upload("file", {}),
  });
  if (created.status !== 201) throw new Error(`bench grammar check: ${created.status} ${await created.text()}`);
  const assessment = ((await created.json()) as { languageAssessments: { identity: string }[] }).languageAssessments[0].identity;
  await portal.ask("grammar-complete", assessment);

  const countryId = (await portal.ask<number>("country-id", "US")) ?? 0;
  const json = api(base, tools);
  const bought = await json(
    "POST",
    "/api/digital-edit/payment",
    cardPayment(countryId, { availableDigitalPurchaseIdentity: "editing-annual" }),
    { "idempotency-key": randomUUID() },
  );
  if (bought.status !== 200) throw new Error(`bench digital subscription: ${bought.status} ${await bought.text()}`);
  for (let i = 0; i < 3; i++) {
    const edit = await fetch(`${base}/api/digital-edit/create`, {
      method: "POST",
      headers: { cookie: tools },
      body: upload("digitalEditFiles", { styleOfEnglish: "American English" }),
    });
    if (edit.status !== 201) throw new Error(`bench digital edit: ${edit.status} ${await edit.text()}`);
    const use = await json(
      "POST",
      "/api/digital-translation/payment",
      cardPayment(countryId, { availableDigitalPurchaseIdentity: "one-use", language: "es_ES" }),
      { "idempotency-key": randomUUID() },
    );
    if (use.status !== 200) throw new Error(`bench translation use: ${use.status} ${await use.text()}`);
    const translation = await fetch(`${base}/api/digital-order/create`, {
      method: "POST",
      headers: { cookie: tools },
      body: upload("digitalTranslationFiles", { language: "es_ES" }),
    });
    if (translation.status !== 201) throw new Error(`bench translation: ${translation.status} ${await translation.text()}`);
  }
  return {
    researcher,
    tools,
    orderDetails: details,
    payPage: `/en/researcher/invoices/pay/${unpaid}`,
    grammarReport: `/en/researcher/grammar-check/details/${assessment}`,
    countryId,
  };
}

/** Order-form drafts, one per connection (each with its own draft cookie), already at the services step. */
async function wizardDrafts(base: string, count: number): Promise<string[]> {
  const drafts: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await fetch(`${base}/en/researcher/submit/new`, { redirect: "manual" });
    const cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.startsWith("draft="))!;
    await fetch(`${base}/en/researcher/submit/get-started`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=next&customerGoal=manuscript&uploadFilesLater=on&wordCount=3000&languageId=1",
    });
    await fetch(`${base}/en/researcher/submit/manuscript-services`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "toggle=standard-editing",
    });
    drafts.push(cookie);
  }
  return drafts;
}

/** `users` researchers, each with `invoices` unpaid invoices to pay by card while thinking (orders through the API). */
async function payers(base: string, users: number, invoices: number): Promise<{ cookie: string; invoices: string[] }[]> {
  const all: { cookie: string; invoices: string[] }[] = [];
  const one = async () => {
    const cookie = await register(base);
    const area = await areaId(base, cookie);
    for (let i = 0; i < invoices; i++) await placeOrder(base, cookie, area, `Bench payment ${i + 1}`, "standard-editing");
    all.push({ cookie, invoices: await unpaidInvoices(base, cookie) });
  };
  for (let i = 0; i < users; i += 5) await Promise.all(Array.from({ length: Math.min(5, users - i) }, one));
  return all;
}

// ---- measurements ---------------------------------------------------------------------------------------------

const quantile = (sorted: number[], q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);

interface Stepping {
  steps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  stats: PortalStats | null;
}
interface PortalStats {
  loop: { p50: number; p99: number; max: number };
  gc: { count: number; ms: number; max: number };
  pool: { acquisitions: number; p50: number; p99: number; max: number; maxWaiting: number } | null;
}

/**
 * Users who each do a step (`step(i)`: true when it went as it should), think 1 to 3 s, and do it again, for the
 * given seconds after a 4 s ramp-up (users arriving, first renders), which is not counted. DESIGN §7's
 * "50 concurrent users" are modelled this way; the closed-loop autocannon runs are the saturation figures.
 */
async function usersThinking(
  portal: Target,
  users: number,
  seconds: number,
  step: (user: number) => Promise<boolean | null>,
): Promise<Stepping> {
  const latencies: number[] = [];
  let errors = 0;
  const countFrom = Date.now() + 4000;
  const until = countFrom + seconds * 1000;
  let statsStarted: Promise<unknown> | null = null;
  const user = async (i: number) => {
    // Users arrive spread over the first think time, not all in the same millisecond.
    await new Promise((r) => setTimeout(r, (i / users) * 2000));
    while (Date.now() < until) {
      const started = performance.now();
      let ok: boolean | null;
      try {
        ok = await step(i);
      } catch {
        ok = false;
      }
      if (ok === null) return; // nothing left to do (no invoice left to pay)
      if (!ok) errors++;
      if (Date.now() >= countFrom) {
        statsStarted ??= portal.ask("stats-start");
        latencies.push(performance.now() - started);
      }
      await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000));
    }
  };
  await Promise.all(Array.from({ length: users }, (_, i) => user(i)));
  await statsStarted;
  const stats = await portal.ask<PortalStats>("stats-stop");
  latencies.sort((a, b) => a - b);
  return {
    steps: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: quantile(latencies, 1),
    errors,
    stats,
  };
}

/**
 * How long the invoice PDFs of five invoices take on their first download (each rendered in the PDF pool, then
 * cached): GET /api/invoice/{n}/pdf, milliseconds each. The pool is warmed by one render before.
 */
async function firstInvoicePdf(base: string, cookie: string): Promise<number[]> {
  const load = await (await fetch(`${base}/api/invoice/load?page=2`, { headers: { cookie } })).json();
  const numbers: string[] = load.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber).slice(0, 6);
  const times: number[] = [];
  for (const n of numbers) {
    const started = performance.now();
    const r = await fetch(`${base}/api/invoice/${n}/pdf`, { headers: { cookie } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`invoice PDF ${n}: ${r.status}`);
    times.push(Math.round(performance.now() - started));
  }
  return times.slice(1);
}

/** Gzipped HTML plus the gzipped CSS it links (the JavaScript a browser loads is scripts/bench-browser.ts's). */
async function htmlCss(base: string, pathname: string, cookie?: string) {
  const html = await (await fetch(base + pathname, { headers: cookie ? { cookie } : {} })).text();
  const gz = (s: string) => zlib.gzipSync(s).length;
  let bytes = gz(html);
  for (const m of html.matchAll(/<link[^>]+href="(\/assets\/[^"]+\.css)"/g)) bytes += gz(await (await fetch(base + m[1])).text());
  const foreign = [...html.matchAll(/(?:src|href|action)="((?:https?:)?\/\/[^"]+)"/g)].length;
  return { bytes, foreign };
}

/** Top self-time functions of a .cpuprofile: time per function name + file:line, summed over its samples. */
function topSelfTime(file: string, top = 25) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const f = byNode.get(id)!;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const where = f.url ? `${f.url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "")}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return [...self.entries()]
    .filter(([k]) => k !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
}

/** A database of the bench's own on the PostgreSQL server of DATABASE_URL, dropped and created again. */
async function benchDatabase(url: string): Promise<string> {
  const target = new URL(url);
  const name = process.env.BENCH_DATABASE_NAME ?? "portal_bench";
  if (target.pathname.slice(1) === name) throw new Error(`bench: DATABASE_URL already names ${name}`);
  target.pathname = `/${name}`;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return target.toString();
}

interface Page {
  name: string;
  path: string;
  cookie?: () => string | undefined;
  /** Per-connection cookies (the wizard's drafts). */
  perConnection?: boolean;
}

async function main() {
  const target = process.argv[2];
  if (target === "baseline") return serveBaseline();
  if (target === "portal") return servePortal();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-"));
  const databaseUrl = process.env.DATABASE_URL ? await benchDatabase(process.env.DATABASE_URL) : undefined;
  // What every portal process of this run shares: its data, its database, its Redis keys.
  const portalEnv = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `portal-bench-${process.pid}:`,
    LOG_LEVEL: "warn",
    LOG_SQL: undefined,
    BENCH_BARE_ROUTE: "1",
    // Background jobs are a worker's (the production layout): the web process is what is measured.
    WORKERS: "external",
    TRANSLATION_MODE: "sandbox",
    PAYMENTS_MODE: "sandbox",
    FLAG_CURIE_IS_LAUNCHED: "on",
    CONFIG_RATE_LIMITS: RELAXED_RATE_LIMITS,
  };
  const clustered = Number(process.env.WEB_CONCURRENCY ?? 1) > 1 || process.env.WEB_CONCURRENCY === "auto";
  const startMeasured = () =>
    clustered
      ? child(["scripts/start.ts"], { ...portalEnv, PORT: String(3410 + Math.floor(Math.random() * 20)) })
      : child(["scripts/bench.ts", "portal"], portalEnv);
  const portal = await startMeasured();
  const baseline = await child(["scripts/bench.ts", "baseline"], {});
  const health = await (await fetch(`${portal.url}/healthz`)).json();
  console.log(
    `\nBenchmark: ${SECONDS}s per target, ${CONNECTIONS} connections, ${os.cpus().length} CPUs (shared: compare ratios of one run), database ${health.database.kind}, redis ${health.redis.configured ? "yes" : "no"}, portal processes: ${clustered ? process.env.WEB_CONCURRENCY : 1}`,
  );

  const fixture = await buildFixture(portal);
  const drafts = await wizardDrafts(portal.url, CONNECTIONS);
  const researcher = () => fixture.researcher;
  const tools = () => fixture.tools;
  const pages: Page[] = [
    { name: "sign-in", path: "/en/login" },
    { name: "dashboard (30 orders)", path: "/en/researcher", cookie: researcher },
    { name: "order details", path: fixture.orderDetails, cookie: researcher },
    { name: "wizard step + My Order", path: "/en/researcher/submit/manuscript-services", perConnection: true },
    { name: "invoice list", path: "/en/researcher/invoices", cookie: researcher },
    { name: "pay an invoice", path: fixture.payPage, cookie: researcher },
    { name: "grammar report", path: fixture.grammarReport, cookie: tools },
    { name: "digital editing list", path: "/en/researcher/digital-editing", cookie: tools },
    { name: "digital translations", path: "/en/researcher/digital-translations", cookie: tools },
    { name: "rewards", path: "/en/researcher/rewards", cookie: researcher },
    { name: "home", path: "/en/home", cookie: researcher },
  ].filter((p) => !PAGES || PAGES.test(p.name));

  let next = 0;
  const perConnection = (context: Record<string, string>) => (context.cookie ??= drafts[next++ % drafts.length]);
  const getOptions = (p: Page): Partial<autocannon.Options> =>
    p.perConnection
      ? {
          requests: [
            {
              method: "GET",
              path: p.path,
              setupRequest: (req, context) => ({
                ...req,
                headers: { ...req.headers, cookie: perConnection(context as Record<string, string>) },
              }),
            },
          ],
        }
      : { headers: p.cookie?.() ? { cookie: p.cookie()! } : {} };
  const cookieOf = (p: Page) => (p.perConnection ? drafts[0] : p.cookie?.());
  const fetchPage = (base: string, p: Page, headers: Record<string, string> = {}) => {
    const cookie = cookieOf(p);
    return fetch(base + p.path, { headers: { ...(cookie ? { cookie } : {}), ...headers }, redirect: "manual" });
  };

  // The bare Remix page's own shell (root layout, CSS link, scripts, the common translations): subtracted, so
  // the floor page is as long as the page it is compared with.
  const bareShell = Buffer.byteLength(await (await fetch(`${portal.url}/__bench/bare/0`)).text());

  interface Row extends Result {
    bytes: number;
    rts?: number;
    bare?: number;
    htmlCss?: number;
    sql?: number | null;
    path?: string;
    page?: Page;
  }
  const rows: Row[] = [];
  const baselines: Row[] = [];
  const floors = async (bytes: number) => {
    const rts = await measure(`renderToString ${Math.round(bytes / 1000)} kB`, `${baseline.url}/${bytes}`);
    const bare = await measure(`bare Remix ${Math.round(bytes / 1000)} kB`, `${portal.url}/__bench/bare/${Math.max(0, bytes - bareShell)}`);
    baselines.push({ ...rts, bytes }, { ...bare, bytes, rts: rts.rps });
    return { rts: rts.rps, bare: bare.rps };
  };
  for (const p of pages) {
    const first = await fetchPage(portal.url, p);
    const html = await first.text();
    if (first.status !== 200) {
      console.log(`  ${p.name}: ${p.path} answers ${first.status} ${first.headers.get("location") ?? ""}: not measured`);
      continue;
    }
    const bytes = Buffer.byteLength(html);
    const floor = await floors(bytes);
    const r = await measure(p.name, portal.url + p.path, getOptions(p));
    const weight = await htmlCss(portal.url, p.path, cookieOf(p));
    rows.push({ ...r, bytes, ...floor, htmlCss: weight.bytes, path: p.path, page: p });
    if (weight.foreign) console.log(`  ${p.name}: ${weight.foreign} third-party URL(s) in the page`);
    process.stdout.write(`  measured ${p.name}: ${r.rps.toFixed(0)} req/s\n`);
  }
  const wizard = rows.find((r) => r.name.startsWith("wizard"));
  if (wizard) {
    const step = await measure("wizard step POST→303→GET", `${portal.url}${wizard.path}`, {
      requests: [
        {
          method: "POST",
          path: wizard.path!,
          setupRequest: (req, context) => ({
            ...req,
            body: "toggle=premium-editing",
            headers: {
              ...req.headers,
              "content-type": "application/x-www-form-urlencoded",
              cookie: perConnection(context as Record<string, string>),
            },
          }),
        },
        {
          method: "GET",
          path: wizard.path!,
          setupRequest: (req, context) => ({
            ...req,
            headers: { ...req.headers, cookie: perConnection(context as Record<string, string>) },
          }),
        },
      ],
    });
    // Two requests per autocannon "request" pair: the ratios compare pages served, as before.
    rows.push({ ...step, bytes: wizard.bytes, rts: wizard.rts, bare: wizard.bare, htmlCss: wizard.htmlCss });
  }
  const healthz = await measure("GET /healthz", `${portal.url}/healthz`);
  const invoicePdfMs = await firstInvoicePdf(portal.url, fixture.researcher);

  // The wizard step and a card payment, each with USERS users thinking 1–3 s.
  const stepping = await usersThinking(portal, Math.min(USERS, drafts.length), USERS_SECONDS, async (i) => {
    const cookie = drafts[i];
    const post = await fetch(`${portal.url}/en/researcher/submit/manuscript-services`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "toggle=premium-editing",
    });
    await post.arrayBuffer();
    const get = await fetch(portal.url + (post.headers.get("location") ?? "/en/researcher/submit/manuscript-services"), {
      headers: { cookie },
    });
    await get.arrayBuffer();
    return post.status === 303 && get.status === 200;
  });
  // Each payer pays one invoice a step; a step takes 1–3 s of thinking, so this many are enough for the run.
  const perPayer = Math.min(30, Math.ceil((USERS_SECONDS + 6) / 2) + 3); // 30: the uploads a user may make in 10 minutes
  process.stdout.write(`  placing ${USERS * perPayer} orders for ${USERS} paying researchers…\n`);
  const payerList = await payers(portal.url, USERS, perPayer);
  const paying = await usersThinking(portal, payerList.length, USERS_SECONDS, async (i) => {
    const payer = payerList[i];
    const number = payer.invoices.shift();
    if (!number) return null;
    const post = await api(portal.url, payer.cookie)(
      "POST",
      "/api/payoff/payment",
      cardPayment(fixture.countryId, { additionalData: { payoffReceiptCodes: [number] } }),
      { "idempotency-key": randomUUID() },
    );
    const body = (await post.json()) as { payment?: { status: string; redirectUrl?: string } };
    const landing = body.payment?.redirectUrl;
    const get = landing ? await fetch(portal.url + landing, { headers: { cookie: payer.cookie } }) : null;
    await get?.arrayBuffer();
    return post.status === 200 && body.payment?.status === "succeeded" && get?.status === 200;
  });
  await portal.stop();

  // Round trips: a portal process of its own with LOG_SQL=1 (its log would slow the measured one) counts the
  // queries each request made, by request id; each page is asked twice and the second (warm caches) counted.
  const counting = await child(["scripts/bench.ts", "portal"], { ...portalEnv, LOG_SQL: "1" });
  for (const r of rows) {
    if (!r.page) continue;
    let count: number | null = null;
    for (let i = 0; i < 2; i++) {
      const id = `bench-${randomUUID()}`;
      await (await fetchPage(counting.url, r.page, { "x-request-id": id })).arrayBuffer();
      count = await counting.ask<number>("sql-count", id);
    }
    r.sql = count;
  }
  const stepRow = rows.find((r) => r.name.startsWith("wizard step POST"));
  if (stepRow) {
    const id = `bench-${randomUUID()}`;
    const post = await fetch(`${counting.url}/en/researcher/submit/manuscript-services`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: drafts[0], "content-type": "application/x-www-form-urlencoded", "x-request-id": id },
      body: "toggle=premium-editing",
    });
    await post.arrayBuffer();
    const postCount = (await counting.ask<number>("sql-count", id)) ?? 0;
    stepRow.sql = postCount + (wizard?.sql ?? 0);
  }
  await counting.stop();

  // CPU profiles of the three slowest pages, each alone in a profiled portal process.
  const profiles: { name: string; lines: string[] }[] = [];
  if (PROFILE) {
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    const slowest = rows
      .filter((r) => r.page)
      .sort((a, b) => a.rps - b.rps)
      .slice(0, 3);
    for (const r of slowest) {
      const name = `${r.name.replace(/[^a-z0-9]+/gi, "-")}-${Date.now()}.cpuprofile`;
      // The process's whole life (--cpu-prof) is mostly start-up (tsx compiling, the build loading): only the
      // measured run, after its warm-up, is profiled (the inspector's sampling profiler, as --cpu-prof uses).
      const profiled = await child(["scripts/bench.ts", "portal"], portalEnv);
      await autocannon({ url: profiled.url + r.page!.path, connections: 10, duration: 3, ...getOptions(r.page!) });
      await profiled.ask("profile-start");
      await autocannon({
        url: profiled.url + r.page!.path,
        connections: CONNECTIONS,
        duration: Math.max(3, SECONDS),
        ...getOptions(r.page!),
      });
      await profiled.ask("profile-stop", path.join(PROFILE_DIR, name));
      await profiled.stop();
      profiles.push({ name: `${r.name} (${r.path})`, lines: topSelfTime(path.join(PROFILE_DIR, name)) });
    }
  }
  await baseline.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  // ---- the report ------------------------------------------------------------------------------------------
  const pad = (s: string, n: number) => s.padEnd(n);
  const mark = (ratio: number | undefined, bar: number) =>
    ratio === undefined ? "" : `${ratio.toFixed(2)}${ratio >= bar ? " ok" : " FAIL"}`;
  console.log("\nFloors (each page's own size; ×rTS: the bare Remix page against renderToString of the same size)");
  console.log(pad("floor", 30) + pad("req/s", 9) + pad("p50 ms", 8) + pad("p99 ms", 8) + pad("×rTS", 8) + "errors/non-2xx");
  for (const b of baselines) {
    console.log(
      pad(b.name, 30) +
        pad(b.rps.toFixed(0), 9) +
        pad(String(b.p50), 8) +
        pad(String(b.p99), 8) +
        pad(b.rts ? (b.rps / b.rts).toFixed(2) : "", 8) +
        `${b.errors}/${b.non2xx}`,
    );
  }
  console.log(
    `\nPages (bars: ≥ ${BAR_BARE_REMIX}× bare Remix, ≥ ${BAR_RENDER_TO_STRING}× renderToString; HTML+CSS gzipped, budget 60 KiB; DB: queries per request, warm)`,
  );
  console.log(
    pad("page", 28) +
      pad("req/s", 8) +
      pad("p50", 6) +
      pad("p99", 6) +
      pad("×rTS", 11) +
      pad("×bare Remix", 13) +
      pad("KiB", 7) +
      pad("HTML+CSS", 10) +
      pad("DB", 5) +
      "errors/non-2xx",
  );
  for (const r of rows) {
    console.log(
      pad(r.name, 28) +
        pad(r.rps.toFixed(0), 8) +
        pad(String(r.p50), 6) +
        pad(String(r.p99), 6) +
        pad(mark(r.rts ? r.rps / r.rts : undefined, BAR_RENDER_TO_STRING), 11) +
        pad(mark(r.bare ? r.rps / r.bare : undefined, BAR_BARE_REMIX), 13) +
        pad((r.bytes / 1024).toFixed(1), 7) +
        pad(r.htmlCss ? `${(r.htmlCss / 1024).toFixed(1)}${r.htmlCss <= 60 * 1024 ? "" : " FAIL"}` : "", 10) +
        pad(r.sql == null ? "" : String(r.sql), 5) +
        `${r.errors}/${r.non2xx}`,
    );
  }
  console.log(`GET /healthz: ${healthz.rps.toFixed(0)} req/s, p50 ${healthz.p50} ms, p99 ${healthz.p99} ms`);
  const statsLine = (s: PortalStats | null) =>
    s
      ? `    portal process: event-loop delay p50 ${s.loop.p50} ms, p99 ${s.loop.p99} ms, max ${s.loop.max} ms; GC ${s.gc.count} pauses, ${s.gc.ms} ms in all, longest ${s.gc.max} ms; ` +
        (s.pool
          ? `pool acquisitions ${s.pool.acquisitions}, wait p50 ${s.pool.p50} ms, p99 ${s.pool.p99} ms, max ${s.pool.max} ms, most waiting at once ${s.pool.maxWaiting}`
          : "pool: PGlite (one connection, no pool)")
      : "    (no portal figures: clustered)";
  for (const [what, s] of [
    ["wizard step (POST→303→GET)", stepping],
    ["card payment (POST /api/payoff/payment → GET landing)", paying],
  ] as const) {
    console.log(
      `\n${what}, ${USERS} users thinking 1–3 s, ${USERS_SECONDS}s: ${s.steps} steps, p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms, errors ${s.errors} ` +
        `(bar: p99 ≤ ${BAR_STEP_P99_MS} ms, no errors: ${s.p99 <= BAR_STEP_P99_MS && s.errors === 0 ? "ok" : "FAIL"})`,
    );
    console.log(statsLine(s.stats));
  }
  console.log(`\none-page invoice PDF, first render (not cached): ${invoicePdfMs.map((ms) => `${ms} ms`).join(", ")} (bar: < 150 ms)`);
  for (const p of profiles) {
    console.log(`\nCPU profile, ${p.name}: top self time (${PROFILE_DIR}/)`);
    for (const l of p.lines) console.log(`  ${l}`);
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
