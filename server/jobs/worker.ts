// Runs jobs from the queue: either inside the web process (WORKERS=inline) or as its own process
// (scripts/worker.ts). The handlers are passed in; nothing is registered at module level.
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { AppContext } from "../context";
import {
  claimNext,
  completeJob,
  failJob,
  heartbeat,
  pruneFinishedJobs,
  recoverStaleJobs,
  DEFAULT_BACKOFF_BASE_MS,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_STALE_AFTER_MS,
  type Job,
} from "./queue";

export interface JobRun<P = unknown> {
  ctx: AppContext;
  job: Job<P>;
  workerId: string;
  /** Aborted when the worker is stopped and will not wait any longer. */
  signal: AbortSignal;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one table holds handlers of many payload types (parameters are contravariant, so not unknown)
export type JobHandler<P = any> = (payload: P, run: JobRun<P>) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

/** Throw this from a handler for a failure that another attempt cannot fix. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

export interface WorkerOptions {
  /** Default: host-pid-random. */
  workerId?: string;
  /** Wait between polls when the queue is empty (default 1000 ms). */
  pollMs?: number;
  /** Jobs run at the same time by this worker (default 1). */
  concurrency?: number;
  staleAfterMs?: number;
  /** Lock refresh while a job runs (default staleAfterMs / 3). */
  heartbeatMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How often stale locks are looked for (default 5 s). */
  maintenanceEveryMs?: number;
  /** How long stop() waits for running jobs before it gives up on them (default 10 s; their locks then expire). */
  stopTimeoutMs?: number;
}

export interface Worker {
  readonly id: string;
  start(): void;
  stop(): Promise<void>;
  /** Recovers stale locks, then runs at most one due job. True when it ran one. */
  runOnce(): Promise<boolean>;
}

export function createWorker(ctx: AppContext, handlers: JobHandlers, options: WorkerOptions = {}): Worker {
  const id = options.workerId ?? `${os.hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const pollMs = options.pollMs ?? 1000;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.max(1000, Math.floor(staleAfterMs / 3));
  const kinds = Object.keys(handlers);
  const log = ctx.logger.child({ worker: id });
  const abort = new AbortController();
  let running = false;
  let loops: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  let lastMaintenance = 0;

  async function maintenance() {
    // Stale locks every poll would be cheap too, but once every few seconds is plenty.
    if (Date.now() - lastMaintenance < (options.maintenanceEveryMs ?? 5000)) return;
    lastMaintenance = Date.now();
    const recovered = await recoverStaleJobs(ctx.db, staleAfterMs);
    if (recovered.requeued || recovered.failed) log.warn(recovered, "recovered jobs of a stopped worker");
    if (Math.random() < 0.01) await pruneFinishedJobs(ctx.db);
  }

  async function runOnce(): Promise<boolean> {
    await maintenance();
    const job = await claimNext(ctx.db, id, { kinds });
    if (!job) return false;
    const handler = handlers[job.kind];
    const started = Date.now();
    const beat = setInterval(() => {
      heartbeat(ctx.db, job, id).catch((error) => log.warn({ err: error, job: job.id }, "job heartbeat failed"));
    }, heartbeatMs);
    beat.unref();
    try {
      await handler(job.payload, { ctx, job, workerId: id, signal: abort.signal });
      clearInterval(beat);
      const held = await completeJob(ctx.db, job, id);
      log.info({ job: job.id, kind: job.kind, attempt: job.attempts, ms: Date.now() - started, held }, "job done");
    } catch (error) {
      clearInterval(beat);
      const status = await failJob(ctx.db, job, id, error, {
        permanent: error instanceof PermanentJobError,
        backoffBaseMs: options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS,
        backoffMaxMs: options.backoffMaxMs ?? DEFAULT_BACKOFF_MAX_MS,
      });
      log[status === "failed" ? "error" : "warn"]({ err: error, job: job.id, kind: job.kind, attempt: job.attempts, status }, "job failed");
    }
    return true;
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  }

  async function loop() {
    let failures = 0;
    while (running) {
      try {
        const ran = await runOnce();
        failures = 0;
        if (!ran && running) await sleep(pollMs);
      } catch (error) {
        // The database is away, most likely: wait longer each time (up to a minute) and try again.
        failures++;
        log.warn({ err: error }, "job worker could not poll");
        if (running) await sleep(Math.min(60_000, pollMs * 2 ** Math.min(failures, 6)));
      }
    }
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => loop());
      log.info({ kinds, pollMs }, "job worker started");
    },
    async stop() {
      if (!running) return;
      running = false;
      for (const done of [...sleepers]) done();
      const all = Promise.all(loops);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        all.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), options.stopTimeoutMs ?? 10_000);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        abort.abort();
        log.warn("job worker stopped with a job still running; its lock will expire and the job will run again");
      }
      loops = [];
    },
    runOnce,
  };
}
