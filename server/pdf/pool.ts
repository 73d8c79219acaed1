// The PDF render pool (issue 10 §5, ADR 028): PDFs are rendered in a few worker threads, not on the web
// process's event loop, where a CJK quote held every other request for 400–600 ms. Workers start on the
// first render and stay warm (fonts read once per worker); renders wait in a bounded queue, and past it
// the pool refuses at once (`PdfPoolBusyError`, a 503 with Retry-After) instead of piling up. A render
// that takes too long, or a worker that dies, fails that render alone: the worker is replaced.
//
// The renderers run inside the workers, from the table in renderers.ts (one line per kind).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { PdfRenderers, PDF_RENDERERS } from "./renderers";

/** Kinds of PDF the pool renders with a renderer table `R` (by default the portal's, renderers.ts). */
export type PdfKind<R extends PdfRenderers = typeof PDF_RENDERERS> = keyof R & string;
/** The data a kind's renderer takes. */
export type PdfData<K extends PdfKind<R>, R extends PdfRenderers = typeof PDF_RENDERERS> = Parameters<R[K]>[0];

/** Workers when PDF_WORKERS is not set: one core is left to the web process, at most two are taken. */
export function defaultPdfWorkers(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

/** Renders waiting for a worker, per worker, before the pool refuses. */
export const PDF_QUEUE_PER_WORKER = 8;
/** A render (worker start included) that takes longer fails, and its worker is replaced. */
export const PDF_RENDER_TIMEOUT_MS = 30_000;
/** What a refused render's answer asks the client to wait. */
export const PDF_BUSY_RETRY_SECONDS = 5;

/** The queue is full: answer 503 with Retry-After (`retryAfterSeconds`). */
export class PdfPoolBusyError extends Error {
  readonly code = "pdf-pool-busy";
  constructor(readonly retryAfterSeconds: number) {
    super("the PDF render queue is full");
  }
}

/** A render that did not finish: it timed out, its worker died, or the pool was closed. */
export class PdfRenderError extends Error {
  readonly code = "pdf-render-failed";
}

export interface PdfPoolOptions {
  /** Worker threads (default: defaultPdfWorkers()). */
  workers?: number;
  /** Renders that may wait (default: PDF_QUEUE_PER_WORKER per worker). */
  queueLimit?: number;
  timeoutMs?: number;
  /** Absolute path of the renderer table module the workers load (default: renderers.ts; tests use their own). */
  renderers?: string;
  /** Heap cap of each worker, in MB. */
  heapMb?: number;
}

export interface PdfPool<R extends PdfRenderers = typeof PDF_RENDERERS> {
  /** The PDF of `kind` for `data`, rendered in a worker. Rejects with PdfPoolBusyError or PdfRenderError. */
  render<K extends PdfKind<R>>(kind: K, data: PdfData<K, R>): Promise<Buffer>;
  /** Workers started, renders running and waiting. */
  stats(): { workers: number; busy: number; queued: number };
  /** Stops the workers; renders running or waiting are rejected. A later render starts the pool again. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  kind: string;
  data: unknown;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The worker entry is plain JavaScript beside this module. A bundle that inlined this module (the Remix
 * server build) has no such file beside it: the source tree's copy is used then.
 */
function workerFile(): string {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), "render-worker.mjs");
  return fs.existsSync(beside) ? beside : path.resolve("server/pdf/render-worker.mjs");
}

export function createPdfPool<R extends PdfRenderers = typeof PDF_RENDERERS>(options: PdfPoolOptions = {}): PdfPool<R> {
  const size = Math.max(1, Math.floor(options.workers ?? defaultPdfWorkers()));
  const queueLimit = options.queueLimit ?? size * PDF_QUEUE_PER_WORKER;
  const timeoutMs = options.timeoutMs ?? PDF_RENDER_TIMEOUT_MS;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;

  function finish(slot: Slot): Job | null {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    // An idle worker does not keep the process alive.
    slot.worker.unref();
    return job;
  }

  /** The worker is gone or going (crash, timeout): its render fails, and the next render gets a new worker. */
  function drop(slot: Slot, error: Error) {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    slots.splice(index, 1);
    finish(slot)?.reject(error);
    void slot.worker.terminate();
    pump();
  }

  function spawn(): Slot {
    const worker = new Worker(workerFile(), {
      workerData: options.renderers ? { renderers: options.renderers } : undefined,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 768 },
    });
    const slot: Slot = { worker, job: null, timer: null };
    worker.on("message", (m: { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; error: string }) => {
      if (slot.job?.id !== m.id) return;
      const job = finish(slot)!;
      if (m.ok) job.resolve(Buffer.from(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength));
      else job.reject(new Error(m.error));
      pump();
    });
    worker.on("error", (error: Error & { code?: string }) =>
      drop(slot, new PdfRenderError(`PDF worker failed: ${error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "out of memory" : error.message}`)),
    );
    worker.on("exit", (code) => drop(slot, new PdfRenderError(`PDF worker exited with code ${code}`)));
    slots.push(slot);
    return slot;
  }

  function dispatch(slot: Slot, job: Job) {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => drop(slot, new PdfRenderError(`PDF render took longer than ${timeoutMs} ms`)), timeoutMs);
    try {
      slot.worker.postMessage({ id: job.id, kind: job.kind, data: job.data });
    } catch (error) {
      // Data that cannot be cloned (a function, a class instance with private state): this render's fault.
      finish(slot);
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function pump() {
    while (queue.length) {
      let slot: Slot | null;
      try {
        slot = slots.find((s) => !s.job) ?? (slots.length < size ? spawn() : null);
      } catch (error) {
        // A worker that cannot even be created fails the render that asked for it.
        queue.shift()!.reject(new PdfRenderError(`PDF worker could not start: ${error instanceof Error ? error.message : String(error)}`));
        continue;
      }
      if (!slot) return;
      dispatch(slot, queue.shift()!);
    }
  }

  return {
    render(kind, data) {
      return new Promise<Buffer>((resolve, reject) => {
        const job: Job = { id: nextId++, kind, data, resolve, reject };
        const idle = slots.some((s) => !s.job) || slots.length < size;
        if (!idle && queue.length >= queueLimit) return reject(new PdfPoolBusyError(PDF_BUSY_RETRY_SECONDS));
        queue.push(job);
        pump();
      });
    },
    stats() {
      return { workers: slots.length, busy: slots.filter((s) => s.job).length, queued: queue.length };
    },
    async close() {
      const closing = slots.splice(0);
      const waiting = queue.splice(0);
      const error = new PdfRenderError("the PDF render pool was closed");
      for (const job of waiting) job.reject(error);
      for (const slot of closing) finish(slot)?.reject(error);
      await Promise.all(closing.map((s) => s.worker.terminate()));
    },
  };
}
