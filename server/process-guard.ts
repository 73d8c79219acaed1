// What a web process does when something fails outside every handler (issue 20 §2, ADR 050).
//
// - An unhandled rejection is a promise whose failure nobody awaited: the work it stood for is lost, but nothing
//   shared was left half-changed (database writes are transactions, and a rejected promise unwinds no stack).
//   It is logged as an error with the request id that started it, and the process keeps serving: one bad request
//   must not take down every other researcher's.
// - An uncaught exception unwinds a stack through code that did not expect it: a stream, a pool or a lock may be
//   left in any state. It is logged as fatal with its request id, the process stops taking new connections, gives
//   the requests in flight a moment, and exits with status 1; the primary (scripts/start.ts) starts a fresh one.
import type { Logger } from "./logger";
import { currentRequest } from "./request-context";

export interface ProcessGuardOptions {
  logger: Logger;
  /** Called once on an uncaught exception, before the process exits: stop listening, close what can be closed. */
  onFatal?: () => Promise<void> | void;
  /** How long onFatal may take before the process exits anyway. */
  fatalGraceMs?: number;
  /** Exits the process (replaced in tests). */
  exit?: (code: number) => void;
}

let installed: (() => void) | null = null;

/** Installs the handlers once per process; returns a function that removes them (tests). */
export function installProcessGuard(options: ProcessGuardOptions): () => void {
  installed?.();
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const grace = options.fatalGraceMs ?? 2000;
  let exiting = false;

  const onRejection = (reason: unknown) => {
    const request = currentRequest();
    options.logger.error({ err: reason, requestId: request?.requestId, method: request?.method, url: request?.url }, "unhandled rejection");
  };
  const onException = (error: Error, origin: string) => {
    const request = currentRequest();
    options.logger.fatal(
      { err: error, origin, requestId: request?.requestId, method: request?.method, url: request?.url },
      "uncaught exception: this process may be in a broken state and exits; a fresh one takes its place",
    );
    if (exiting) return;
    exiting = true;
    const force = setTimeout(() => exit(1), grace);
    force.unref();
    Promise.resolve()
      .then(() => options.onFatal?.())
      .catch(() => undefined)
      .finally(() => exit(1));
  };
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  installed = () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
    installed = null;
  };
  return installed;
}

/**
 * The delay before a primary restarts a web process that died (issue 20 §2): at once after one that served a
 * while, then 0.25 s doubling to 30 s while processes keep dying young, so a broken start does not spin.
 * `deathsInARow` counts the deaths in a row of processes that lived only briefly (the first death counts 1).
 */
export function restartDelayMs(deathsInARow: number): number {
  if (deathsInARow <= 1) return 0;
  return Math.min(30_000, 250 * 2 ** (deathsInARow - 2));
}
