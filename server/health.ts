// Tracks whether the database answers, so that requests get a clear 503 page
// (with Retry-After) during an outage instead of a stack of 500s, and the
// portal recovers by itself when the database returns.
import { isDatabaseUnavailable, pingDatabase, type DB } from "./db";

export const RETRY_AFTER_SECONDS = 30;

export class HealthState {
  private dbOk = true;
  private checkedAt = 0;
  private inflight: Promise<boolean> | null = null;

  constructor(
    private db: DB,
    private recheckMs = 2000,
  ) {}

  /** True when the database is believed to be up; while it is down, re-probes at most every `recheckMs`. */
  async databaseAvailable(): Promise<boolean> {
    if (this.dbOk) return true;
    if (Date.now() - this.checkedAt < this.recheckMs) return false;
    return this.probe();
  }

  probe(): Promise<boolean> {
    if (!this.inflight) {
      this.inflight = pingDatabase(this.db).then((ok) => {
        this.dbOk = ok;
        this.checkedAt = Date.now();
        this.inflight = null;
        return ok;
      });
    }
    return this.inflight;
  }

  /** The last known state, without probing (the render uses it to turn a failed page into a 503). */
  get databaseDown(): boolean {
    return !this.dbOk;
  }

  /** Called with errors raised while handling a request. */
  reportError(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.dbOk = false;
    this.checkedAt = Date.now();
    return true;
  }
}
