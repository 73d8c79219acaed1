// A second machine (issue 26 §5, ADR 078): two web processes with different DATA_DIRs and a worker process,
// sharing PostgreSQL, Redis (when REDIS_URL is set) and an S3-compatible server this test starts. A researcher
// uploads a manuscript through process A; the worker analyses it (its word count shows through B); through B the
// researcher downloads the manuscript, pays the order's invoice with the card sandbox and, once staff have
// delivered a file through A, downloads the deliverables zip — bytes equal. No file is kept in either DATA_DIR.
//
// The database: with DATABASE_URL (CI's PostgreSQL run) a database of this test's own on that server; without it
// (the embedded run) a PostgreSQL this test starts itself, as the process-fault tests do — embedded PGlite belongs
// to one process and cannot be shared, so both runs test the same two-process layout.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, migrateToLatest, type OpenedDatabase } from "../../server/db";
import { seedReference } from "../../db/seed";
import { readEnv } from "../../server/env";
import { createAppContext, type AppContext } from "../../server/context";
import { createCache } from "../../server/cache";
import { createLogger } from "../../server/logger";
import { PAYMENT_METHOD } from "../../server/payments";
import { transitionOrder } from "../../server/orders/life";
import { createPlacedOrder, createResearcher, createStaff } from "../helpers/factories";
import { makeDocx, makePdf } from "../helpers/fixtures";
import { readZip } from "../helpers/deliverables";
import { Client, RELAXED_RATE_LIMITS, signIn } from "../helpers/portal";
import { startS3TestServer, s3Env, type S3TestServer } from "../helpers/s3-server";
import { startOwnPostgres, type OwnPostgres } from "../faults/procs-pg";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const children = new Set<ChildProcess>();
const tmpDirs: string[] = [];
let s3: S3TestServer;
let ownPg: OwnPostgres | null = null;
let adminDb: OpenedDatabase | null = null;
let databaseUrl: string;
let databaseName: string | null = null;
let database: OpenedDatabase;
let ctx: AppContext;
let A: { url: string; dataDir: string };
let B: { url: string; dataDir: string };
let worker: { output(): string };

function tmpDir(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `twoproc-${tag}-`));
  tmpDirs.push(dir);
  return dir;
}

/** A script of the repository in a process of its own (tsx), with the machine's environment replaced by `env`. */
function start(script: string, env: Record<string, string>, ready: RegExp): Promise<{ match: RegExpMatchArray; output(): string }> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(base))
    if (/^(DATABASE_|REDIS_|S3_|STORAGE|SMTP_|MAIL_|PORT$|WEB_CONCURRENCY|WORKERS)/.test(key)) delete base[key];
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 150_000);
    child.stdout!.on("data", (d) => {
      output += d;
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ match, output: () => output });
      }
    });
    child.stderr!.on("data", (d) => (output += d));
    child.on("exit", (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}):\n${output}`));
    });
  });
}

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n--- worker ---\n${worker?.output()}`);
    await sleep(200);
  }
}

/** The same signed-in browser, talking to the other machine: its cookies go along. */
function through(client: Client, url: string): Client {
  const other = new Client(url);
  other.cookies = client.cookies;
  return other;
}

async function bytes(r: Response): Promise<Buffer> {
  return Buffer.from(await r.arrayBuffer());
}

beforeAll(async () => {
  s3 = await startS3TestServer();
  if (process.env.DATABASE_URL) {
    // A database of this test's own on CI's server: the processes share it, other test files never see it.
    databaseName = `portal_twoproc_${randomBytes(4).toString("hex")}`;
    // Created from the server's maintenance database: DATABASE_URL's own may not exist yet (the other lanes' setup
    // makes it).
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = "/postgres";
    adminDb = await openPostgres(url.toString(), 2);
    await sql.raw(`create database ${databaseName}`).execute(adminDb.db);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  } else {
    ownPg = await startOwnPostgres();
    databaseUrl = ownPg.url;
  }
  database = await openPostgres(databaseUrl, 4);
  await migrateToLatest(database.db);
  await seedReference(database.db);

  const shared: Record<string, string> = {
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_URL: databaseUrl,
    // The same secret on every machine (README "Production layout"): a cookie signed by A is good on B.
    SESSION_SECRET: "two-machines-shared-secret",
    SEED_DEMO: "false",
    PAYMENTS_MODE: "sandbox",
    CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
    WORKER_POLL_MS: "200",
    ...s3Env(s3),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `twoproc:${randomBytes(4).toString("hex")}:` } : {}),
  };
  // This process prepares the data (factories) on the same database and store, as a third machine would.
  ctx = createAppContext({
    env: readEnv({ ...shared, DATA_DIR: tmpDir("test") }),
    db: database.db,
    dbKind: database.kind,
    cache: await createCache(undefined),
    logger: createLogger("silent"),
    secrets: { cookieSecret: shared.SESSION_SECRET },
  });
  const web = (dataDir: string) => ({ ...shared, DATA_DIR: dataDir, WORKERS: "external" });
  const [a, b] = [tmpDir("a"), tmpDir("b")];
  const [startedA, startedB, startedWorker] = await Promise.all([
    start("tests/twoproc/portal-child.ts", web(a), /LISTENING (\S+)/),
    start("tests/twoproc/portal-child.ts", web(b), /LISTENING (\S+)/),
    start("tests/twoproc/worker-child.ts", { ...shared, DATA_DIR: tmpDir("worker") }, /WORKING (\S+)/),
  ]);
  A = { url: startedA.match[1], dataDir: a };
  B = { url: startedB.match[1], dataDir: b };
  worker = startedWorker;
}, 240_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  ctx?.storage.close();
  await ctx?.pdf.close();
  await database?.close();
  if (adminDb && databaseName) {
    await sql
      .raw(`drop database if exists ${databaseName} with (force)`)
      .execute(adminDb.db)
      .catch(() => undefined);
    await adminDb.close();
  }
  await ownPg?.stop();
  await s3?.close();
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("two web machines and a worker on one S3 store", () => {
  it("upload on A, analysis by the worker, download, payment and the deliverables zip on B: the same bytes", async () => {
    const researcher = await createResearcher(ctx);
    const onA = await signIn(A, researcher);
    const onB = through(onA, B.url);

    // 1. The manuscript, uploaded through A.
    const manuscript = await makeDocx("Soil bacteria under drought change their membranes. ".repeat(40));
    const formId: string = (await (await onA.get("/api/order-form/new")).json()).orderForm.identity;
    const fd = new FormData();
    fd.append("mainFiles", new Blob([new Uint8Array(manuscript)], { type: DOCX }), "manuscript.docx");
    const uploaded = await onA.request(`/api/order-form/${formId}/files`, { method: "POST", body: fd });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const fileId: string = (await uploaded.json()).files[0].identity;

    // 2. The worker, a third process, analyses it from the store; B reports the word count.
    const details = await waitFor(
      "the word count",
      async () => {
        const d = await (await onB.get(`/api/order-form/${formId}/document-details`)).json();
        return d.documentDetailsReceived && d.wordCount ? d : null;
      },
      30_000,
    );
    expect(details.wordCount).toBe(280);
    expect(details.analysisFailed).toBeFalsy();

    // 3. B, which never saw the upload, serves it.
    const download = await onB.get(`/api/file/${fileId}/download`);
    expect(download.status).toBe(200);
    expect((await bytes(download)).equals(manuscript)).toBe(true);

    // 4. An order of theirs, paid through B with the card sandbox.
    const order = await createPlacedOrder(ctx, researcher);
    const country = await ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
    const paid = await onB.request("/api/payoff/payment", {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({
        paymentMethodId: PAYMENT_METHOD.creditCard,
        acceptedTermsAndConditions: true,
        additionalData: { payoffReceiptCodes: [order.invoiceNumber] },
        billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: country.id } },
        creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
      }),
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    const invoice = await ctx.db
      .selectFrom("invoices")
      .select("status")
      .where("number", "=", order.invoiceNumber!)
      .executeTakeFirstOrThrow();
    expect(invoice.status).toBe("paid");

    // 5. Staff deliver a file through A's console, and complete the order.
    const staff = await createStaff(ctx);
    const staffOnA = await signIn(A, staff);
    await transitionOrder(ctx, { userId: staff.id }, { externalId: order.externalId }, "start");
    const deliverable = await makePdf("Edited manuscript, clean copy");
    const delivery = new FormData();
    delivery.append("intent", "upload");
    delivery.append("files", new Blob([new Uint8Array(deliverable)], { type: "application/pdf" }), "edited.pdf");
    const delivered = await staffOnA.request(`/en/staff/orders/${order.externalId}`, { method: "POST", body: delivery });
    expect(delivered.status, await delivered.clone().text()).toBe(303);
    const completed = await transitionOrder(ctx, { userId: staff.id }, { externalId: order.externalId }, "complete");
    expect(completed.ok).toBe(true);

    // 6. The zip, through B: streamed from the store, the delivered bytes inside.
    const zip = await onB.get(`/api/order/${order.externalId}/deliverables.zip`);
    expect(zip.status, zip.status === 200 ? "" : await zip.clone().text()).toBe(200);
    const body = await bytes(zip);
    expect(body.length).toBe(Number(zip.headers.get("content-length")));
    const entries = readZip(body);
    expect(entries.map((e) => e.name)).toEqual(["edited.pdf"]);
    expect(entries[0].data.equals(deliverable)).toBe(true);

    // Every file in the bucket, none in a DATA_DIR (an empty spool at most), and every call signed.
    const rows = await ctx.db.selectFrom("files").select("stored_name").where("deleted_at", "is", null).execute();
    const keys = new Set(await s3.keys());
    for (const r of rows) expect(keys.has(`files/${r.stored_name.slice(0, 2)}/${r.stored_name}`)).toBe(true);
    for (const dir of [A.dataDir, B.dataDir]) {
      const files = path.join(dir, "files");
      const shards = fs.existsSync(files) ? fs.readdirSync(files).filter((d) => d !== "tmp") : [];
      expect(shards, dir).toEqual([]);
      expect(fs.existsSync(path.join(files, "tmp")) ? fs.readdirSync(path.join(files, "tmp")) : [], dir).toEqual([]);
    }
    expect(s3.unsigned).toBe(0);
    expect(s3.counts.PutObject).toBeGreaterThanOrEqual(3);
  }, 90_000);
});
