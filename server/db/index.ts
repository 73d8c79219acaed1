// Opens the store: PostgreSQL through `pg` when DATABASE_URL is set, otherwise
// embedded PGlite in DATA_DIR guarded by a lock file (two processes on one
// PGlite directory silently diverge, so the second one must stop).
import fs from "node:fs";
import path from "node:path";
import { Kysely, Migrator, PostgresDialect, sql, type LogEvent } from "kysely";
import type { Database } from "../../db/types";
import { migrationProvider } from "../../db/migrations";
import { CONNECT_TIMEOUT_MS, DEFAULT_POOL_SIZE, DEFAULT_POOL_WAIT_MS } from "./defaults";

export type DB = Kysely<Database>;

export interface OpenedDatabase {
  db: DB;
  kind: "postgres" | "pglite";
  /** Human-readable location for logs (password removed). */
  location: string;
  /** The embedded instance, for dumping a template in tests. */
  pglite?: import("@electric-sql/pglite").PGlite;
  close(): Promise<void>;
}

export class DataDirLockedError extends Error {
  code = "DATA_DIR_LOCKED";
  constructor(dir: string, pid: number) {
    super(
      `Another portal process (pid ${pid}) is already using the embedded database in ${dir}. ` +
        `Stop it first, or start this one with another DATA_DIR or with DATABASE_URL pointing at PostgreSQL.`,
    );
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes DATA_DIR/pglite.lock for this process; returns a release function. */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (pid && pid !== process.pid && processAlive(pid)) throw new DataDirLockedError(dir, pid);
      // A stale lock left by a process that died: take it over.
      fs.unlinkSync(lockPath);
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

/** LOG_SQL=1 prints every query and its duration to stderr: a diagnostic for counting round trips. */
function queryLog() {
  if (!process.env.LOG_SQL) return undefined;
  return (event: LogEvent) => {
    process.stderr.write(`[sql ${event.queryDurationMillis.toFixed(1)} ms] ${event.query.sql.replace(/\s+/g, " ").slice(0, 200)}\n`);
  };
}

/** The health probe's own connection: how long it may take to connect and to answer `select 1`. */
const PROBE_TIMEOUT_MS = 2000;
/** PGlite answers `select 1` in well under a millisecond: a probe still waiting after this is behind a queue. */
const PGLITE_PROBE_WAIT_MS = 500;

/**
 * No client of the pool became free within the pool's wait (ADR 048): the database is up but every client is
 * busy (a burst, or transactions waiting on one row lock). The request is shed with a 503; nothing is marked down.
 */
export class PoolBusyError extends Error {
  code = "POOL_BUSY";
  constructor(waitMs: number, size: number) {
    super(`No free database client within ${waitMs} ms (all ${size} busy)`);
  }
}

/** What a health probe found; `pool` is the request pool's use at that moment (PostgreSQL). */
export interface DatabaseProbe {
  ok: boolean;
  /** The database answered slowly because its connection(s) are all in use: load, not an outage. */
  busy?: boolean;
  pool?: { size: number; inUse: number; waiting: number };
}

// The probe belongs to the opened database, but what request handling holds is the Kysely handle: it is found
// from the handle here, so every holder of one (web process, job worker, tests) probes the same way.
const probes = new WeakMap<DB, () => Promise<DatabaseProbe>>();

/**
 * Probes the database on a connection of its own, never a request-pool client (ADR 048), so a busy pool never
 * reads as an outage. A handle that was not opened here falls back to a `select 1` through the handle.
 */
export function probeDatabase(db: DB): Promise<DatabaseProbe> {
  return probes.get(db)?.() ?? pingDatabase(db).then((ok) => ({ ok }));
}

export async function openPostgres(
  databaseUrl: string,
  poolSize = DEFAULT_POOL_SIZE,
  poolWaitMs = DEFAULT_POOL_WAIT_MS,
): Promise<OpenedDatabase> {
  const pg = await import("pg");
  const Pool = pg.default?.Pool ?? (pg as unknown as { Pool: typeof import("pg").Pool }).Pool;
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  // Nor a checked-out one between two statements of a transaction (PostgreSQL restarted: "terminating
  // connection due to administrator command"): pg emits that on the client, where no one listens, and the
  // process died. The transaction's next statement fails instead (a 503), and the pool drops the client.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: shedding(pool, poolSize, poolWaitMs) }), log: queryLog() });

  // One connection outside the pool for health probes, opened on the first probe and kept (an idle timeout of 0:
  // a server at max_connections must not turn a reconnecting probe into a false outage).
  let probePool: import("pg").Pool | null = null;
  probes.set(db, async () => {
    if (!probePool) {
      probePool = new Pool({
        connectionString: databaseUrl,
        max: 1,
        connectionTimeoutMillis: PROBE_TIMEOUT_MS,
        idleTimeoutMillis: 0,
        allowExitOnIdle: true,
      });
      probePool.on("error", () => undefined);
      probePool.on("connect", (client) => client.on("error", () => undefined));
    }
    const stats = { size: poolSize, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount };
    let client: import("pg").PoolClient | undefined;
    try {
      client = await probePool.connect();
      await client.query({ text: "select 1", query_timeout: PROBE_TIMEOUT_MS } as import("pg").QueryConfig);
      client.release();
      return { ok: true, pool: stats };
    } catch (error) {
      // A connection that timed out or failed is not reused: the next probe opens a fresh one.
      client?.release(true);
      // A server with every connection slot taken (53300) is up: busy, like the pool.
      return isDatabaseBusy(error) ? { ok: true, busy: true, pool: stats } : { ok: false, pool: stats };
    }
  });
  return {
    db,
    kind: "postgres",
    location: redactUrl(databaseUrl),
    close: async () => {
      await db.destroy();
      await probePool?.end();
    },
  };
}

/**
 * The pool as Kysely sees it, with a bound on the wait for a free client (ADR 048). pg's own
 * connectionTimeoutMillis covers both opening a connection and waiting for a busy pool; the wait is cut shorter
 * here so a starved pool sheds its queue quickly, while opening a connection keeps CONNECT_TIMEOUT_MS. A waiter
 * given up stays in pg's queue; the client it is handed later goes straight back to the pool.
 */
function shedding(pool: import("pg").Pool, size: number, waitMs: number) {
  return {
    connect(): Promise<import("pg").PoolClient> {
      // A free client, or room to open one: nothing to wait for (opening has its own timeout).
      if (pool.idleCount > 0 || pool.totalCount < size) return pool.connect();
      return new Promise((resolve, reject) => {
        let gaveUp = false;
        const timer = setTimeout(() => {
          gaveUp = true;
          reject(new PoolBusyError(waitMs, size));
        }, waitMs);
        pool.connect().then(
          (client) => {
            if (gaveUp) return client.release();
            clearTimeout(timer);
            resolve(client);
          },
          (error: unknown) => {
            if (gaveUp) return;
            clearTimeout(timer);
            reject(error);
          },
        );
      });
    },
    end: () => pool.end(),
  };
}

/** Opens PGlite. `dataDir` undefined means in memory; `loadDataDir` restores a dump (tests clone a template this way). */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob; lock?: boolean }): Promise<OpenedDatabase> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGliteDialect } = await import("kysely-pglite-dialect");
  const release = options.dataDir && options.lock !== false ? lockDataDir(options.dataDir) : () => undefined;
  try {
    const pglite = options.dataDir
      ? await PGlite.create(path.join(options.dataDir, "pglite"), { loadDataDir: options.loadDataDir })
      : await PGlite.create({ loadDataDir: options.loadDataDir });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), log: queryLog() });
    // PGlite has one connection and the queue in front of it has no end: a probe still waiting behind a long
    // transaction means load, not an outage (ADR 048). Down means the instance is closed or fails the query.
    probes.set(db, async () => {
      if (pglite.closed) return { ok: false };
      const answered = await answersWithin(db, PGLITE_PROBE_WAIT_MS);
      return answered === "late" ? { ok: true, busy: true } : { ok: answered === "ok" };
    });
    return {
      db,
      kind: "pglite",
      pglite,
      location: options.dataDir ? path.resolve(options.dataDir, "pglite") : "memory",
      close: async () => {
        await db.destroy();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * True when DATA_DIR's lock is held by `pid` (the primary of this worker, issue 20 §2): the worker opens the
 * embedded database under its parent's lock instead of taking one of its own.
 */
export function lockHeldByParent(dir: string, pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    return Number(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8").trim()) === pid;
  } catch {
    return false;
  }
}

export async function openDatabase(
  env: { DATABASE_URL?: string; DATA_DIR: string; DATABASE_POOL_SIZE?: number; DATABASE_POOL_WAIT_MS?: number },
  options: { lock?: boolean } = {},
): Promise<OpenedDatabase> {
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL, env.DATABASE_POOL_SIZE, env.DATABASE_POOL_WAIT_MS);
  return openPglite({ dataDir: env.DATA_DIR, lock: options.lock });
}

export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Busy, not down (ADR 048): the pool had no free client in time (PoolBusyError, or pg's own "timeout exceeded when
 * trying to connect", which pg-pool raises only for a waiter in its queue, never for a connection being opened), or
 * the server refused a new connection because all its slots are taken (53300 too_many_connections: it is up, and
 * the clients already open keep working).
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (e instanceof PoolBusyError || code === "POOL_BUSY" || code === "53300") return true;
    if ((e as { message?: unknown }).message === "timeout exceeded when trying to connect") return true;
  }
  return false;
}

/**
 * Errors that mean the database cannot be reached (as opposed to a bad query, or a busy pool): the server refused
 * or dropped the connection, is shutting down or starting (57P01/57P03), or a new connection could not be opened
 * within CONNECT_TIMEOUT_MS ("Connection terminated due to connection timeout").
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e || isDatabaseBusy(error)) return false;
  const codes = new Set([
    "ECONNREFUSED",
    "ECONNRESET",
    "ENOTFOUND",
    "ETIMEDOUT",
    "EPIPE",
    "57P01",
    "57P02",
    "57P03",
    "08000",
    "08001",
    "08003",
    "08006",
  ]);
  if (e.code && codes.has(e.code)) return true;
  return /Connection terminated|Client has encountered a connection error/i.test(e.message ?? "");
}

export async function pingDatabase(db: DB, timeoutMs = 2000): Promise<boolean> {
  return (await answersWithin(db, timeoutMs)) === "ok";
}

/** Runs `select 1`: "ok", "failed", or "late" when it has not answered within `timeoutMs`. */
async function answersWithin(db: DB, timeoutMs: number): Promise<"ok" | "failed" | "late"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      sql`select 1`.execute(db).then(() => "ok" as const),
      new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), timeoutMs);
      }),
    ]);
  } catch {
    return "failed";
  } finally {
    clearTimeout(timer);
  }
}
