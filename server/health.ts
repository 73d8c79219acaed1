// Tracks whether the database answers, so that requests get a clear 503 page
// (with Retry-After) during an outage instead of a stack of 500s, and the
// portal recovers by itself when the database returns. A busy pool is not an
// outage (ADR 048): the request that waited too long for a client is shed with
// its own 503, and nothing is marked down.
import { isDatabaseUnavailable, isDatabaseBusy, probeDatabase, type DatabaseProbe, type DB } from "./db";

export const RETRY_AFTER_SECONDS = 30;
/** A shed request may come back soon: the pool frees up as soon as the burst's transactions end. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** Why a request is answered 503, and when to come back. */
export interface Unavailable {
  reason: "down" | "busy";
  retryAfter: number;
}

const DOWN: Unavailable = { reason: "down", retryAfter: RETRY_AFTER_SECONDS };
const BUSY: Unavailable = { reason: "busy", retryAfter: BUSY_RETRY_AFTER_SECONDS };

export class HealthState {
  private dbOk = true;
  private checkedAt = 0;
  private inflight: Promise<DatabaseProbe> | null = null;

  constructor(
    private db: DB,
    private recheckMs = 2000,
  ) {}

  /** True when the database is believed to be up; while it is down, re-probes at most every `recheckMs`. */
  async databaseAvailable(): Promise<boolean> {
    if (this.dbOk) return true;
    if (Date.now() - this.checkedAt < this.recheckMs) return false;
    return (await this.probe()).ok;
  }

  /**
   * Probes the database on its own connection (never a request-pool client, so a busy pool reads as up) and
   * records the answer; concurrent callers (the outage check, /healthz) share one probe.
   */
  probe(): Promise<DatabaseProbe> {
    if (!this.inflight) {
      this.inflight = probeDatabase(this.db).then((result) => {
        this.dbOk = result.ok;
        this.checkedAt = Date.now();
        this.inflight = null;
        return result;
      });
    }
    return this.inflight;
  }

  /** The last known state, without probing (the render uses it to turn a failed page into a 503). */
  get databaseDown(): boolean {
    return !this.dbOk;
  }

  /**
   * Called with errors raised while handling a request: what the request should be answered, if a 503. Only an
   * error that means the database cannot be reached marks it down; a request that found no free pool client is
   * shed alone.
   */
  reportError(error: unknown): Unavailable | null {
    if (isDatabaseBusy(error)) return BUSY;
    if (!isDatabaseUnavailable(error)) return null;
    this.dbOk = false;
    this.checkedAt = Date.now();
    return DOWN;
  }
}

// ---- Pages ----------------------------------------------------------------------------------------
// Remix catches a loader's error and renders the error boundary with a 500; handleError
// (app/entry.server.tsx) records on the request's load context why the request is unavailable, and the response
// becomes a 503. The record is a property under a registered symbol, not a module's WeakMap: the Remix build
// bundles its own copy of this module, which the HTTP layer (loaded from source) does not share.

const UNAVAILABLE = Symbol.for("portal.request-unavailable");

export function markUnavailable(loadContext: object, why: Unavailable): void {
  (loadContext as { [UNAVAILABLE]?: Unavailable })[UNAVAILABLE] = why;
}

export function unavailableOf(loadContext: object): Unavailable | undefined {
  return (loadContext as { [UNAVAILABLE]?: Unavailable })[UNAVAILABLE];
}

/**
 * Wraps `res.status` of one page request so that a 5xx Remix sets for a request marked unavailable becomes a 503
 * with Retry-After: single-fetch `.data` requests never reach handleRequest, where documents get their 503.
 */
export function unavailableStatus(
  res: { status(code: number): unknown; setHeader(name: string, value: string): unknown },
  loadContext: () => object | undefined,
): void {
  const status = res.status.bind(res);
  res.status = (code: number) => {
    const ctx = loadContext();
    // A document's 503 comes from handleRequest with its own headers; only the 500 of a data request is changed.
    const why = code >= 500 && code !== 503 && ctx ? unavailableOf(ctx) : undefined;
    if (!why) return status(code);
    res.setHeader("Retry-After", String(why.retryAfter));
    res.setHeader("Cache-Control", "no-store");
    return status(503);
  };
}
