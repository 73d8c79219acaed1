// A client that hung up mid-body (issue 20's fuzz inputs, ADR 047): Node fails the request's stream with its own
// "aborted" (code ECONNRESET). Nobody is left to answer, and it is no fault of the portal's: not a database
// outage (its ECONNRESET made the health state answer every page 503 for seconds), not an "unhandled error" log.
import type { IncomingMessage } from "node:http";

export function isClientAbort(error: unknown, req: IncomingMessage): boolean {
  const e = error as { message?: string; code?: string } | null;
  return e?.message === "aborted" && e.code === "ECONNRESET" && req.destroyed;
}
