// The web process killed in the middle of payment confirmations (issue 21 §3, ADR 051): real processes over a
// PostgreSQL this test starts itself. Card payments of many invoices are confirmed at once through
// POST /api/payoff/payment (two tabs each: two keys per invoice), and the web process serving them (the pid
// /healthz names: `npm start` is a primary with a worker) is SIGKILLed as soon as the first attempts are
// under way. The primary replaces it; within a minute every invoice is paid exactly once (one capture on its
// ledger, no surplus) or payable again (no attempt left open, nothing captured) — the recovery job asks the card
// sandbox about every attempt the dead process left `processing` — and each payable one then pays once.
// Retainer invoices (prepayments, POST /api/prepay/payment) are confirmed in the same burst and must end the
// same way: paid once and deposited once, or payable again.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type OpenedDatabase } from "../../server/db";
import { readEnv } from "../../server/env";
import { createAppContext, type AppContext } from "../../server/context";
import { createCache } from "../../server/cache";
import { createLogger } from "../../server/logger";
import { createInvoice, createResearcher, scopeFor } from "../helpers/factories";
import { bankTransferSubmission } from "../helpers/prepay";
import { payPrepayment } from "../../server/prepay/payment";
import { Client, RELAXED_RATE_LIMITS, signIn } from "../helpers/portal";
import { freePort, startOwnPostgres, type OwnPostgres } from "./procs-pg";

let pg: OwnPostgres;
const children = new Set<ChildProcess>();
const tmpDirs: string[] = [];

beforeAll(async () => {
  pg = await startOwnPostgres();
}, 90_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await pg?.stop();
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function spawnStart(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => (children.delete(child), resolve())));
  return { process: child, output: () => output, exited };
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  output?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${output ? `\n--- output ---\n${output()}` : ""}`);
    await sleep(100);
  }
}

describe("the web process killed in the middle of payment confirmations", () => {
  let database: OpenedDatabase;
  let ctx: AppContext;

  beforeAll(async () => {
    const url = new URL(pg.url);
    const admin = await openPostgres(pg.url, 2);
    await sql.raw("create database payments").execute(admin.db);
    await admin.close();
    url.pathname = "/payments";
    database = await openPostgres(url.toString(), 4);
  });
  afterAll(async () => {
    await ctx?.pdf.close();
    await database?.close();
  });

  it("leaves every invoice paid once or payable again within a minute", async () => {
    if (!fs.existsSync(path.resolve("build/server/index.js")))
      throw new Error("build/server/index.js is missing: run `npx remix vite:build` first");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "procs-pay-"));
    tmpDirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const dbUrl = new URL(pg.url);
    dbUrl.pathname = "/payments";
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of ["DATABASE_URL", "REDIS_URL", "SMTP_URL", "MAIL_PICKUP_DIR", "PORT", "WEB_CONCURRENCY", "WORKERS"]) delete env[key];
    Object.assign(env, {
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      DATABASE_URL: dbUrl.toString(),
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      SEED_DEMO: "false",
      // The card sandbox (ADR 053: an installation says when its providers run in test mode).
      PAYMENTS_MODE: "sandbox",
      CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
      // The prepayments below are issued for bank transfer, which the prepay form offers only when configured (ADR 067).
      CONFIG_PREPAY_BANK_TRANSFER: "true",
    });
    const web = spawnStart(env);
    const ready = async () => (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) })).status === 200;
    await waitFor("the portal to start", ready, 90_000, web.output);

    ctx = createAppContext({
      env: readEnv({
        DATA_DIR: dataDir,
        DATABASE_URL: dbUrl.toString(),
        LOG_LEVEL: "silent",
        MAIL_PICKUP_DIR: path.join(dataDir, "mail"),
        CONFIG_PREPAY_BANK_TRANSFER: "true",
      }),
      db: database.db,
      dbKind: database.kind,
      cache: await createCache(undefined),
      logger: createLogger("silent"),
      secrets: { cookieSecret: "procs-pay" },
    });
    const user = await createResearcher(ctx);
    const invoices: { number: string }[] = [];
    for (let i = 0; i < 12; i++) invoices.push((await createInvoice(ctx, user)).invoice);
    // Prepayments issued unpaid (as for a bank transfer), then paid by card through the API below.
    const retainers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const issued = await payPrepayment(scopeFor(ctx, user), { amount: String(100 + i) }, bankTransferSubmission(), randomUUID());
      if (!issued.ok) throw new Error(`prepayment not issued: ${issued.error}`);
      retainers.push(/\/prepay\/(P[A-Z]+\d+)/.exec(issued.value.redirectUrl!)![1]);
    }
    const client: Client = await signIn({ url: base }, user);
    const country = await ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
    const pay = (number: string) =>
      client
        .request("/api/payoff/payment", {
          method: "POST",
          headers: { "content-type": "application/json", "Idempotency-Key": randomUUID() },
          // A connection the primary handed to the worker in the moment it died is never answered (ADR 050's
          // limit): the client gives up, as a browser would, and the attempt counts as unanswered (0).
          signal: AbortSignal.timeout(30_000),
          body: JSON.stringify({
            paymentMethodId: 3,
            acceptedTermsAndConditions: true,
            additionalData: { payoffReceiptCodes: [number] },
            billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: country.id } },
            creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
          }),
        })
        .then((r) => r.status)
        .catch(() => 0);
    const prepay = (number: string) =>
      client
        .request("/api/prepay/payment", {
          method: "POST",
          headers: { "content-type": "application/json", "Idempotency-Key": randomUUID() },
          // A connection the primary handed to the worker in the moment it died is never answered (ADR 050's
          // limit): the client gives up, as a browser would, and the attempt counts as unanswered (0).
          signal: AbortSignal.timeout(30_000),
          body: JSON.stringify({
            paymentMethodId: 3,
            acceptedTermsAndConditions: true,
            retainerInvoiceNumber: number,
            billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: country.id } },
            creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
          }),
        })
        .then((r) => r.status)
        .catch(() => 0);

    // Two tabs per invoice confirm at once; the serving process dies once the first attempts are under way.
    const webPid = (await (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) })).json()).pid as number;
    // Interleaved, so the kill finds attempts of both kinds under way.
    const inFlight = invoices.flatMap((i, n) => [
      pay(i.number),
      pay(i.number),
      ...(n < retainers.length ? [prepay(retainers[n]), prepay(retainers[n])] : []),
    ]);
    await waitFor(
      "the first attempts",
      async () => (await ctx.db.selectFrom("payments").select("id").where("user_id", "=", user.id).execute()).length >= 5,
      30_000,
    );
    const killedAt = Date.now();
    process.kill(webPid, "SIGKILL");
    const statuses = await Promise.all(inFlight);
    const atKill = await ctx.db.selectFrom("payments").select("status").where("user_id", "=", user.id).execute();
    await waitFor(
      "a new web process",
      async () => (await ready()) && (await (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) })).json()).pid !== webPid,
      60_000,
      web.output,
    );

    const state = async () => {
      const rows = await Promise.all(
        invoices.map(async (i) => {
          const inv = await ctx.db
            .selectFrom("invoices")
            .select(["balance", "amount"])
            .where("number", "=", i.number)
            .executeTakeFirstOrThrow();
          const ledger = await ctx.db.selectFrom("invoice_payments").select("amount").where("invoice_number", "=", i.number).execute();
          const attempts = await ctx.db
            .selectFrom("payments")
            .select(["status", "amount"])
            .where(sql<boolean>`invoice_numbers ? ${i.number}`)
            .execute();
          const open = attempts.filter((a) => a.status === "processing" || a.status === "pending").length;
          const captured = attempts.filter((a) => a.status === "succeeded").reduce((s, a) => s + Number(a.amount), 0);
          const credited = ledger.reduce((s, l) => s + Number(l.amount), 0);
          const amount = Number(inv.amount);
          if (open) return "open";
          if (Number(inv.balance) === 0 && credited === amount && captured === amount) return "paid-once";
          if (Number(inv.balance) === amount && credited === 0 && captured === 0) return "payable";
          return `wrong: balance ${inv.balance}, ledger ${credited}, captured ${captured} of ${amount}`;
        }),
      );
      const prepaid = await Promise.all(
        retainers.map(async (number) => {
          const r = await ctx.db
            .selectFrom("invoices")
            .select(["status", "amount", "balance"])
            .where("number", "=", number)
            .executeTakeFirstOrThrow();
          const ledger = await ctx.db.selectFrom("invoice_payments").select("amount").where("invoice_number", "=", number).execute();
          const deposits = await ctx.db
            .selectFrom("balance_movements")
            .select("amount")
            .where("retainer_invoice_number", "=", number)
            .where("kind", "=", "deposit")
            .execute();
          const attempts = await ctx.db
            .selectFrom("payments")
            .select(["status", "amount"])
            .where("purpose", "=", "prepay")
            .where(sql<string>`details->>'retainerInvoiceNumber'`, "=", number)
            .execute();
          const open = attempts.filter((a) => a.status === "processing" || a.status === "pending").length;
          const captured = attempts.filter((a) => a.status === "succeeded").reduce((s, a) => s + Number(a.amount), 0);
          const credited = ledger.reduce((s, l) => s + Number(l.amount), 0);
          const amount = Number(r.amount);
          const deposited = deposits.reduce((s, d) => s + Number(d.amount), 0);
          if (open) return "open";
          if (r.status === "paid" && credited === amount && captured === amount && deposited === amount && deposits.length === 1)
            return "paid-once";
          if (r.status === "unpaid" && Number(r.balance) === amount && credited === 0 && captured === 0 && deposits.length === 0)
            return "payable";
          return `wrong: prepayment ${number} ${r.status}, ledger ${credited}, captured ${captured}, deposited ${deposited} of ${amount}`;
        }),
      );
      return [...rows, ...prepaid];
    };
    let last: string[] = [];
    const settled = await waitFor(
      "every invoice paid once or payable again",
      async () => {
        const s = await state();
        if (s.some((x) => x.startsWith("wrong"))) throw new Error(s.join("; "));
        last = [...s];
        if (process.env.PAYKILL_DEBUG)
          last.push(
            JSON.stringify(
              await ctx.db
                .selectFrom("jobs")
                .select(["kind", "status", "run_at", "attempts", "last_error"])
                .where("kind", "=", "recover-payments")
                .execute(),
            ),
            JSON.stringify(
              await ctx.db
                .selectFrom("payments")
                .select(["status", "lease_until", "provider", "error"])
                .where("user_id", "=", user.id)
                .execute(),
            ),
          );
        return s.every((x) => x !== "open") ? s : null;
      },
      60_000,
      () => `${JSON.stringify(last)}\n${web.output()}`,
    );
    const settledAt = Date.now();
    expect(settled.every((x) => x === "paid-once" || x === "payable")).toBe(true);
    // The payable ones pay once now.
    for (const [n, i] of invoices.entries()) if (settled[n] === "payable") expect(await pay(i.number)).toBe(200);
    for (const [n, number] of retainers.entries()) if (settled[invoices.length + n] === "payable") expect(await prepay(number)).toBe(200);
    expect((await state()).every((x) => x === "paid-once")).toBe(true);
    console.log(
      `payments kill: ${atKill.length} attempts at the kill (${atKill.filter((a) => a.status === "processing").length} processing), ` +
        `answers ${JSON.stringify(statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {}))}; ` +
        `${settled.filter((x) => x === "payable").length} payable again, ${settled.filter((x) => x === "paid-once").length} paid once, ` +
        `resolved ${settledAt - killedAt} ms after the kill`,
    );
    web.process.kill("SIGTERM");
    // Stopping is not what this test measures: a primary still draining after 15 s is killed (afterAll would too).
    await Promise.race([web.exited, sleep(15_000)]);
    web.process.kill("SIGKILL");
    await web.exited;
  }, 240_000);
});
