// Background jobs: the queue (enqueue in the caller's transaction), the worker, and how the portal
// runs it — in the web process (WORKERS=inline, the default) or as its own process (npm run worker).
import type { AppContext } from "../context";
import type { Env } from "../env";
import { createWorker, type JobHandlers, type Worker, type WorkerOptions } from "./worker";

export {
  DEFAULT_BACKOFF_BASE_MS,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_STALE_AFTER_MS,
  backoffMs,
  claimNext,
  completeJob,
  enqueue,
  failJob,
  getJob,
  heartbeat,
  pruneFinishedJobs,
  recoverStaleJobs,
  type EnqueueOptions,
  type FailOptions,
  type Job,
  type JobDb,
} from "./queue";
export { createWorker, PermanentJobError, type Worker, type WorkerOptions, type JobHandler, type JobHandlers, type JobRun } from "./worker";
export { defineJob, jobHandlers, type JobDefinition, type AnyJobDefinition } from "./define";

/** WORKERS: `inline` (default) runs jobs in the web process; `off`/`external` leaves them to `npm run worker`. */
export function workersMode(env: Pick<Env, "WORKERS">): "inline" | "external" {
  return env.WORKERS;
}

/**
 * Starts a worker for the given jobs (the portal's: `portalJobHandlers()` of server/job-handlers.ts) with the
 * environment's settings; stop it (await worker.stop()) before closing the database.
 */
export function startJobWorker(ctx: AppContext, handlers: JobHandlers, options: WorkerOptions = {}): Worker {
  const { WORKER_POLL_MS: pollMs, WORKER_CONCURRENCY: concurrency, WORKER_LEASE_MS: leaseMs } = ctx.env;
  const worker = createWorker(ctx, handlers, {
    ...(pollMs !== undefined ? { pollMs } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    // A short lease is looked for as often: a dead worker's job waits at most about 1.5 leases.
    ...(leaseMs !== undefined ? { staleAfterMs: leaseMs, maintenanceEveryMs: Math.min(5000, Math.ceil(leaseMs / 2)) } : {}),
    ...options,
  });
  worker.start();
  return worker;
}
