// A durable job queue in the `jobs` table (DESIGN §2): enqueue inside the caller's transaction,
// claim with FOR UPDATE SKIP LOCKED (PostgreSQL and PGlite alike), retry with exponential backoff,
// and give a job back when the worker holding it stopped (stale lock).
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { JobStatus } from "../../db/types-documents";

/** A kysely handle or a transaction: enqueue with the transaction of the write that causes the job. */
export type JobDb = Kysely<Database>;

export interface Job<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  status: JobStatus;
  /** Attempts so far, this one included. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lockedBy: string | null;
  lastError: string | null;
}

export interface EnqueueOptions {
  /** Not before this time (default now). */
  runAt?: Date;
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_BASE_MS = 10_000;
export const DEFAULT_BACKOFF_MAX_MS = 60 * 60_000;
/** A running job whose lock has not been refreshed for this long belongs to a worker that died. */
export const DEFAULT_STALE_AFTER_MS = 10 * 60_000;

interface JobRow {
  id: string | number;
  kind: string;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date | string;
  locked_by: string | null;
  last_error: string | null;
}

function toJob<P>(row: JobRow): Job<P> {
  return {
    id: String(row.id),
    kind: row.kind,
    payload: (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as P,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: new Date(row.run_at),
    lockedBy: row.locked_by,
    lastError: row.last_error,
  };
}

const ms = (value: number) => sql`(${Math.max(0, Math.round(value))}::double precision * interval '1 millisecond')`;

/** Adds a job; returns its id. Pass the transaction that makes the change the job is about. */
export async function enqueue(db: JobDb, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!kind) throw new Error("a job needs a kind");
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error("maxAttempts must be a positive integer");
  const row = await db
    .insertInto("jobs")
    .values({
      kind,
      payload: JSON.stringify(payload ?? {}),
      max_attempts: maxAttempts,
      ...(options.runAt ? { run_at: options.runAt } : {}),
    })
    .returning(sql<string>`id::text`.as("id"))
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Takes the next due job (oldest run_at first) for `workerId`, or null. `kinds` limits it to the
 * kinds this worker can run. Concurrent callers never get the same job: the row is locked with
 * FOR UPDATE SKIP LOCKED and marked running in the same statement.
 */
export async function claimNext<P = unknown>(db: JobDb, workerId: string, options: { kinds?: string[] } = {}): Promise<Job<P> | null> {
  if (options.kinds && options.kinds.length === 0) return null;
  const kindFilter = options.kinds ? sql`and kind in (${sql.join(options.kinds)})` : sql``;
  const result = await sql<JobRow>`
    update jobs
       set status = 'running', locked_at = now(), locked_by = ${workerId}, attempts = attempts + 1
     where id = (
       select id from jobs
        where status = 'queued' and run_at <= now() ${kindFilter}
        order by run_at, id
        limit 1
        for update skip locked)
    returning id::text as id, kind, payload, status, attempts, max_attempts, run_at, locked_by, last_error`.execute(db);
  const row = result.rows[0];
  return row ? toJob<P>(row) : null;
}

/** Marks a claimed job done. False when the worker no longer holds it (its lock was recovered). */
export async function completeJob(db: JobDb, job: Pick<Job, "id">, workerId: string): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ status: "done", finished_at: sql<Date>`now()`, locked_at: null, locked_by: null })
    .where("id", "=", job.id)
    .where("status", "=", "running")
    .where("locked_by", "=", workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Delay before attempt n + 1 after n failed attempts: base · 2^(n−1), capped. */
export function backoffMs(attempts: number, baseMs = DEFAULT_BACKOFF_BASE_MS, maxMs = DEFAULT_BACKOFF_MAX_MS): number {
  const n = Math.max(1, attempts);
  return Math.min(maxMs, baseMs * 2 ** Math.min(n - 1, 30));
}

export interface FailOptions {
  /** Do not retry (a bad payload, a file that can never be read). */
  permanent?: boolean;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/**
 * Records a failed attempt: the job is queued again after the backoff, or marked failed when it
 * has used its attempts (or the failure is permanent). Returns the new status, or null when the
 * worker no longer holds the job.
 */
export async function failJob(
  db: JobDb,
  job: Pick<Job, "id" | "attempts" | "maxAttempts">,
  workerId: string,
  error: unknown,
  options: FailOptions = {},
): Promise<JobStatus | null> {
  const message = describeError(error);
  const final = options.permanent || job.attempts >= job.maxAttempts;
  const delay = backoffMs(job.attempts, options.backoffBaseMs, options.backoffMaxMs);
  const result = await db
    .updateTable("jobs")
    .set(
      final
        ? { status: "failed", finished_at: sql<Date>`now()`, locked_at: null, locked_by: null, last_error: message }
        : { status: "queued", run_at: sql<Date>`now() + ${ms(delay)}`, locked_at: null, locked_by: null, last_error: message },
    )
    .where("id", "=", job.id)
    .where("status", "=", "running")
    .where("locked_by", "=", workerId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return final ? "failed" : "queued";
}

/** Refreshes the lock of a job that is still being worked on, so it is not taken for stale. */
export async function heartbeat(db: JobDb, job: Pick<Job, "id">, workerId: string): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ locked_at: sql<Date>`now()` })
    .where("id", "=", job.id)
    .where("status", "=", "running")
    .where("locked_by", "=", workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Gives back jobs whose worker died: running with a lock older than `staleAfterMs`. They are queued
 * to run now, or marked failed when they have used their attempts (the lost attempt counts, so a job
 * that kills its worker every time does not loop forever).
 */
export async function recoverStaleJobs(db: JobDb, staleAfterMs = DEFAULT_STALE_AFTER_MS): Promise<{ requeued: number; failed: number }> {
  const result = await sql<{ status: JobStatus }>`
    update jobs
       set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
           finished_at = case when attempts >= max_attempts then now() else null end,
           run_at = now(),
           last_error = 'lock held by ' || coalesce(locked_by, '?') || ' expired',
           locked_at = null,
           locked_by = null
     where id in (
       select id from jobs
        where status = 'running' and locked_at < now() - ${ms(staleAfterMs)}
        for update skip locked)
    returning status`.execute(db);
  const failed = result.rows.filter((r) => r.status === "failed").length;
  return { requeued: result.rows.length - failed, failed };
}

/** Deletes finished jobs older than `olderThanMs` (default 14 days). */
export async function pruneFinishedJobs(db: JobDb, olderThanMs = 14 * 24 * 3600_000): Promise<number> {
  const result = await db
    .deleteFrom("jobs")
    .where("status", "in", ["done", "failed"])
    .where("finished_at", "<", sql<Date>`now() - ${ms(olderThanMs)}`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function getJob<P = unknown>(db: JobDb, id: string): Promise<Job<P> | null> {
  const row = await db
    .selectFrom("jobs")
    .select([sql<string>`id::text`.as("id"), "kind", "payload", "status", "attempts", "max_attempts", "run_at", "locked_by", "last_error"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toJob<P>(row as JobRow) : null;
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}
