// Opens the store: PostgreSQL through `pg` when DATABASE_URL is set, otherwise
// embedded PGlite in DATA_DIR guarded by a lock file (two processes on one
// PGlite directory silently diverge, so the second one must stop).
import fs from "node:fs";
import path from "node:path";
import { Kysely, Migrator, PostgresDialect, sql, type LogEvent } from "kysely";
import type { Database } from "../../db/types";
import { migrationProvider } from "../../db/migrations";

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

export async function openPostgres(databaseUrl: string, poolSize = 10): Promise<OpenedDatabase> {
  const pg = await import("pg");
  const Pool = pg.default?.Pool ?? (pg as unknown as { Pool: typeof import("pg").Pool }).Pool;
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  // Nor a checked-out one between two statements of a transaction (PostgreSQL restarted: "terminating
  // connection due to administrator command"): pg emits that on the client, where no one listens, and the
  // process died. The transaction's next statement fails instead (a 503), and the pool drops the client.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queryLog() });
  return { db, kind: "postgres", location: redactUrl(databaseUrl), close: () => db.destroy() };
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
  env: { DATABASE_URL?: string; DATA_DIR: string },
  options: { lock?: boolean } = {},
): Promise<OpenedDatabase> {
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL);
  return openPglite({ dataDir: env.DATA_DIR, lock: options.lock });
}

export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Errors that mean the database cannot be reached (as opposed to a bad query). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  const codes = new Set([
    "ECONNREFUSED",
    "ECONNRESET",
    "ENOTFOUND",
    "ETIMEDOUT",
    "EPIPE",
    "57P01",
    "57P02",
    "57P03",
    "53300",
    "08000",
    "08001",
    "08003",
    "08006",
  ]);
  if (e.code && codes.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message ?? "");
}

export async function pingDatabase(db: DB, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`.execute(db),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("database ping timed out")), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
