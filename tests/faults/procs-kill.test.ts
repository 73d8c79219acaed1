// Worker and web process faults (issue 14, ADR 046): real processes, SIGKILLed in the middle of their work,
// over a PostgreSQL this test starts itself (several processes share it; PGlite belongs to one process), so
// the test means the same in CI's PGlite run and in its PostgreSQL run.
// - A worker killed while it sends a job's mail: the next worker takes the job back when its lease expires,
//   runs it once more (attempts 2) and the mail goes out exactly once (one outbox row, one message accepted).
// - The web process killed in the middle of an upload: after a restart on the same DATA_DIR nothing of that
//   upload is recorded or listed, and its partial file is swept at start once it is older than any live upload.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, migrateToLatest, type OpenedDatabase } from "../../server/db";
import { seedReference } from "../../db/seed";
import { readEnv } from "../../server/env";
import { createAppContext, type AppContext } from "../../server/context";
import { createCache } from "../../server/cache";
import { createLogger } from "../../server/logger";
import { createPlacedOrder, createResearcher } from "../helpers/factories";
import { Client, RELAXED_RATE_LIMITS } from "../helpers/portal";
import { freePort, startOwnPostgres, type OwnPostgres } from "./procs-pg";
import { startFakeSmtp, type FakeSmtp } from "./procs-smtp";

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

function tmpDir(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `procs-${tag}-`));
  tmpDirs.push(dir);
  return dir;
}

/** The environment of a child process: this one's, without the shared services CI points the suite at. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "REDIS_URL", "SMTP_URL", "MAIL_PICKUP_DIR", "PORT", "WEB_CONCURRENCY", "WORKERS"]) delete env[key];
  return { ...env, NODE_ENV: "test", LOG_LEVEL: "warn", ...extra };
}

interface Child {
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts a script of the repository (TypeScript, through tsx in this one process: a signal reaches the script itself). */
function spawnScript(script: string, env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { process: child, output: () => output, exited };
}

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number, child?: Child): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${child ? `\n--- process output ---\n${child.output()}` : ""}`);
    await sleep(100);
  }
}

function dbUrl(database: string): string {
  const url = new URL(pg.url);
  url.pathname = `/${database}`;
  return url.toString();
}

const openDb = (database: string): Promise<OpenedDatabase> => openPostgres(dbUrl(database), 4);

describe("a worker killed in the middle of a job", () => {
  let database: OpenedDatabase;
  let ctx: AppContext;
  let smtp: FakeSmtp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tmpDir("worker");
    database = await openDb("postgres");
    await migrateToLatest(database.db);
    await seedReference(database.db);
    // This process only prepares the data (no SMTP: its own mail stays in the outbox); the workers send.
    const env = readEnv({ DATA_DIR: dataDir, DATABASE_URL: pg.url, LOG_LEVEL: "silent", MAIL_PICKUP_DIR: path.join(dataDir, "mail") });
    ctx = createAppContext({
      env,
      db: database.db,
      dbKind: database.kind,
      cache: await createCache(undefined),
      logger: createLogger("silent"),
      secrets: { cookieSecret: "procs-test" },
    });
    smtp = await startFakeSmtp({ holdFirst: true });
  }, 60_000);

  afterAll(async () => {
    await smtp?.close();
    await ctx?.pdf.close();
    await database?.close();
  });

  it("is taken back when its lease expires and runs once more, sending its mail exactly once", async () => {
    const started = Date.now();
    const user = await createResearcher(ctx);
    const placed = await createPlacedOrder(ctx, user);
    const history = await ctx.db
      .selectFrom("order_history as h")
      .innerJoin("orders as o", "o.id", "h.order_id")
      .select(sql<string>`h.id::text`.as("id"))
      .where("o.external_id", "=", placed.externalId)
      .where("h.event", "=", "place")
      .executeTakeFirstOrThrow();
    const job = await ctx.db
      .selectFrom("jobs")
      .select(sql<string>`id::text`.as("id"))
      .where("kind", "=", "order-notification")
      .where(sql<string>`payload->>'historyId'`, "=", history.id)
      .executeTakeFirstOrThrow();
    const jobRow = () =>
      ctx.db
        .selectFrom("jobs")
        .select(["status", "attempts", "locked_by", "last_error"])
        .where("id", "=", job.id)
        .executeTakeFirstOrThrow();
    const mails = () =>
      ctx.db
        .selectFrom("mail_outbox")
        .select(["status"])
        .where("to_email", "=", user.email)
        .where("template", "=", "order-place")
        .execute();

    const workerEnv = childEnv({
      DATABASE_URL: pg.url,
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      WORKER_POLL_MS: "100",
      // A short lease so the test sees it expire; the worker refreshes it every third of it while it runs.
      WORKER_LEASE_MS: "2000",
    });
    const first = spawnScript("scripts/worker.ts", workerEnv);
    // The first worker has written the outbox row and is waiting for the SMTP server to take the message.
    const held = await Promise.race([
      smtp.held,
      first.exited.then((code) => Promise.reject(new Error(`worker exited ${code}: ${first.output()}`))),
    ]);
    expect(held.to).toEqual([user.email]);
    const midJob = await jobRow();
    expect(midJob).toMatchObject({ status: "running", attempts: 1 });
    expect(await mails()).toEqual([{ status: "queued" }]);
    const killedAt = Date.now();
    first.process.kill("SIGKILL");
    await first.exited;

    const second = spawnScript("scripts/worker.ts", workerEnv);
    try {
      const done = await waitFor(
        "the job to be done by the second worker",
        async () => {
          const row = await jobRow();
          return row.status === "done" && row;
        },
        30_000,
        second,
      );
      const recoveredMs = Date.now() - killedAt;
      expect(done.attempts).toBe(2);
      expect(done.last_error).toMatch(/expired/);
      // One message went out: the retry delivered the row the killed attempt wrote instead of writing a second.
      expect(smtp.accepted.filter((m) => m.to.includes(user.email))).toHaveLength(1);
      expect(await mails()).toEqual([{ status: "sent" }]);
      const notified = await ctx.db
        .selectFrom("order_history")
        .select("notified_at")
        .where("id", "=", history.id)
        .executeTakeFirstOrThrow();
      expect(notified.notified_at).not.toBeNull();
      console.log(
        `worker kill: job ${job.id} held at ${killedAt - started} ms, recovered and done ${recoveredMs} ms after SIGKILL (attempts 2)`,
      );
    } finally {
      second.process.kill("SIGTERM");
      await second.exited;
    }
  }, 60_000);
});

describe("the web process killed in the middle of an upload", () => {
  let database: OpenedDatabase;

  beforeAll(async () => {
    const admin = await openDb("postgres");
    await sql.raw("create database web").execute(admin.db);
    await admin.close();
    database = await openDb("web");
  });
  afterAll(async () => database?.close());

  it("leaves nothing recorded or listed, and its partial file is swept when the portal starts again", async () => {
    if (!fs.existsSync(path.resolve("build/server/index.js")))
      throw new Error("build/server/index.js is missing: run `npx remix vite:build` first");
    const dataDir = tmpDir("web");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = childEnv({
      DATABASE_URL: dbUrl("web"),
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      SEED_DEMO: "false",
      CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
      HTTP_REQUEST_TIMEOUT_MS: "60000",
    });
    const ready = async () => (await fetch(`${url}/healthz`)).status === 200;
    const started = Date.now();
    let web = spawnScript("scripts/start.ts", env);
    await waitFor("the portal to start", ready, 60_000, web);

    const client = new Client(url);
    const form = (await (await client.get("/api/order-form/new")).json()).orderForm.identity as string;
    const whole = new FormData();
    whole.append("mainFiles", new Blob(["A whole manuscript, received in full. ".repeat(100)]), "whole.txt");
    expect((await client.request(`/api/order-form/${form}/files`, { method: "POST", body: whole })).status).toBe(201);

    // A large upload that arrives slowly: the headers promise 20 MB, half a megabyte comes, then the server dies.
    const boundary = "procs-boundary-7d1f";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="mainFiles"; filename="killed.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /api/order-form/${form}/files HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${client.cookieHeader()}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n${head}`,
    );
    const line = "The manuscript goes on and on, one line after another, until the server dies.\n";
    for (let i = 0; i < 8; i++) {
      socket.write(line.repeat(Math.ceil(65536 / line.length)));
      await sleep(50);
    }
    const tmp = path.join(dataDir, "files", "tmp");
    const partial = await waitFor(
      "the upload's partial file",
      async () => fs.readdirSync(tmp).find((name) => name.endsWith(".part") && fs.statSync(path.join(tmp, name)).size > 100_000),
      10_000,
      web,
    );
    // The whole portal dies at once (the machine loses power, the OOM killer takes the group): its web process,
    // which was writing the upload, and the primary that would restart it (issue 20 §2).
    const webPid = (await (await fetch(`${url}/healthz`)).json()).pid as number;
    expect(webPid).not.toBe(web.process.pid);
    const killedAt = Date.now();
    process.kill(webPid, "SIGKILL");
    web.process.kill("SIGKILL");
    await web.exited;
    await waitFor("the web process to end", async () => !fs.existsSync(`/proc/${webPid}`), 10_000);
    socket.destroy();

    // Nothing of the killed upload was recorded; its bytes are only in the .part nobody lists.
    const named = (name: string) => database.db.selectFrom("files").select("id").where("original_name", "=", name).execute();
    expect(await named("killed.txt")).toEqual([]);
    expect(await named("whole.txt")).toHaveLength(1);
    expect(fs.existsSync(path.join(tmp, partial))).toBe(true);

    // Time passes (older than the request timeout + a minute: no live upload can still be writing it), and
    // another process sharing DATA_DIR is writing a fresh one right now, which must be left alone.
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(path.join(tmp, partial), old, old);
    const live = path.join(tmp, "0123456789abcdef0123456789abcdef.part");
    fs.writeFileSync(live, "still arriving");

    web = spawnScript("scripts/start.ts", env);
    try {
      await waitFor("the portal to start again", ready, 60_000, web);
      const restartedAt = Date.now();
      await waitFor("the partial upload to be swept", async () => !fs.existsSync(path.join(tmp, partial)), 10_000, web);
      console.log(
        `upload kill: SIGKILL ${killedAt - started} ms after start (mid-body); ` +
          `serving again ${restartedAt - killedAt} ms later; partial file swept ${Date.now() - restartedAt} ms after that`,
      );
      expect(fs.existsSync(live)).toBe(true);
      const loaded = await client.get(`/api/order-form/${form}/load`);
      expect(loaded.status).toBe(200);
      const text = await loaded.text();
      expect(text).toContain("whole.txt");
      expect(text).not.toContain("killed.txt");
      expect(await named("killed.txt")).toEqual([]);
      // The stored files are exactly the recorded ones: no renamed-but-unrecorded file either.
      const stored = fs
        .readdirSync(path.join(dataDir, "files"))
        .filter((d) => d !== "tmp")
        .flatMap((d) => fs.readdirSync(path.join(dataDir, "files", d)));
      const recorded = await database.db.selectFrom("files").select("stored_name").execute();
      expect(stored.sort()).toEqual(recorded.map((r) => r.stored_name).sort());
    } finally {
      web.process.kill("SIGTERM");
      await web.exited;
    }
  }, 120_000);
});
