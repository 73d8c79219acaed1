// A job kind is declared once: its name, the zod schema of its payload and its handler
// (docs/conventions.md "A background job"). Enqueueing goes through the declaration, so the payload is
// typed where the job is created and checked again where it runs: a row written by an older release, by
// hand or by a bug that no longer parses fails permanently on its first attempt instead of being retried.
import * as z from "zod/mini";
import { enqueue, type EnqueueOptions, type JobDb } from "./queue";
import { PermanentJobError, type JobHandlers, type JobRun } from "./worker";

export interface JobDefinition<K extends string = string, S extends z.ZodMiniType = z.ZodMiniType> {
  readonly kind: K;
  /** Schema of the payload as stored (JSON): keep it to plain objects, strings, numbers and booleans. */
  readonly payload: S;
  /** Attempts before the job is marked failed, unless the caller says otherwise (default 5). */
  readonly maxAttempts?: number;
  /**
   * Runs one attempt with the parsed payload. It must be idempotent: an attempt may run again after a
   * crash or a stale lock, so it writes with upserts or checks what is already done. Throw
   * PermanentJobError for a failure another attempt cannot fix; any other error is retried with backoff.
   */
  readonly handler: (payload: z.output<S>, run: JobRun) => Promise<void>;
  /** Adds a job of this kind; pass the transaction of the write the job is about. Throws on a payload that does not parse. */
  enqueue(db: JobDb, payload: z.input<S>, options?: EnqueueOptions): Promise<string>;
}

/** A job definition of any kind and payload (lists of jobs, the worker's handler map). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds definitions of many payload types
export type AnyJobDefinition = JobDefinition<string, any>;

/** The reason a payload does not parse, one line per field ("fileId: Invalid string"). */
export function describePayloadError(error: z.core.$ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(payload)"}: ${issue.message}`).join("; ");
}

export function defineJob<K extends string, S extends z.ZodMiniType>(definition: {
  kind: K;
  payload: S;
  maxAttempts?: number;
  handler: (payload: z.output<S>, run: JobRun) => Promise<void>;
}): JobDefinition<K, S> {
  if (!definition.kind) throw new Error("a job needs a kind");
  return {
    ...definition,
    async enqueue(db, payload, options = {}) {
      // A caller handing over a payload the handler could not read is a bug: fail the caller's transaction now.
      const parsed = z.safeParse(definition.payload, payload);
      if (!parsed.success) throw new TypeError(`invalid payload for job ${definition.kind}: ${describePayloadError(parsed.error)}`);
      return enqueue(db, definition.kind, payload, { maxAttempts: definition.maxAttempts, ...options });
    },
  };
}

/**
 * The worker's handler map for these jobs: each handler parses the stored payload first and fails the
 * job permanently when it does not parse (one attempt, the reason in `last_error`).
 */
export function jobHandlers(definitions: readonly AnyJobDefinition[]): JobHandlers {
  const handlers: JobHandlers = {};
  for (const definition of definitions) {
    if (Object.hasOwn(handlers, definition.kind)) throw new Error(`job kind ${definition.kind} is defined twice`);
    handlers[definition.kind] = async (payload: unknown, run: JobRun) => {
      const parsed = z.safeParse(definition.payload, payload);
      if (!parsed.success) throw new PermanentJobError(`invalid payload for ${definition.kind}: ${describePayloadError(parsed.error)}`);
      await definition.handler(parsed.data, run);
    };
  }
  return handlers;
}
