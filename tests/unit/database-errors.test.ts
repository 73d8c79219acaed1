// What a database error means for the request and for the portal (ADR 048): "cannot connect" marks the database
// down (every page 503 until a probe finds it again); "no free client" (a busy pool, a server with every connection
// slot taken) sheds only the request that met it, with a shorter Retry-After, and marks nothing.
import { describe, expect, it } from "vitest";
import { isDatabaseBusy, isDatabaseUnavailable, PoolBusyError } from "../../server/db";
import { BUSY_RETRY_AFTER_SECONDS, HealthState, RETRY_AFTER_SECONDS } from "../../server/health";

const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

const busy = [
  new PoolBusyError(2000, 20),
  // pg-pool's own message for a waiter in its queue (a wait longer than its connectionTimeoutMillis).
  new Error("timeout exceeded when trying to connect"),
  pgError("sorry, too many clients already", "53300"),
  new Error("loader failed", { cause: new PoolBusyError(2000, 20) }),
];
const down = [
  pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
  new Error("Connection terminated unexpectedly"),
  // pg-pool opening a new connection that did not complete within the connect timeout.
  new Error("Connection terminated due to connection timeout"),
  pgError("terminating connection due to administrator command", "57P01"),
  pgError("the database system is starting up", "57P03"),
];
const neither = [pgError('relation "nope" does not exist', "42P01"), pgError("invalid input syntax for type integer", "22P02")];

describe("database errors", () => {
  it("tells a busy pool from a database that cannot be reached", () => {
    for (const e of busy) expect([isDatabaseBusy(e), isDatabaseUnavailable(e)], e.message).toEqual([true, false]);
    for (const e of down) expect([isDatabaseBusy(e), isDatabaseUnavailable(e)], e.message).toEqual([false, true]);
    for (const e of neither) expect([isDatabaseBusy(e), isDatabaseUnavailable(e)], e.message).toEqual([false, false]);
  });

  it("marks the database down only when it cannot be reached; a busy pool sheds the one request", () => {
    // reportError never touches the database: no handle is needed to classify.
    const health = new HealthState(undefined as never);
    for (const e of busy) expect(health.reportError(e)).toEqual({ reason: "busy", retryAfter: BUSY_RETRY_AFTER_SECONDS });
    expect(health.databaseDown).toBe(false);
    for (const e of neither) expect(health.reportError(e)).toBeNull();
    expect(health.databaseDown).toBe(false);
    expect(health.reportError(down[0])).toEqual({ reason: "down", retryAfter: RETRY_AFTER_SECONDS });
    expect(health.databaseDown).toBe(true);
  });
});
