// An answer sent before its request's body was read (a 401 before the upload, a 413 past the cap, a 400 on
// the first bad byte) must not leave the connection waiting for the rest (issue 10 item 14, ADR 025). Node
// keeps such a connection alive and reads the whole unread body to throw it away: a client that sent 200 MB
// kept it busy, and one that stops sending stalled its connection until the keep-alive timeout (65 s behind
// a proxy). Go's rule, here: a small remainder (≤ DRAIN_LIMIT_BYTES declared) is read and discarded so the
// connection can serve the next request; anything larger, or of unknown length (chunked), gets
// `Connection: close`, and Node closes the connection once the answer is written.
import type { IncomingMessage, ServerResponse } from "node:http";

/** The most of an unread body read only to keep the connection open for the next request. */
export const DRAIN_LIMIT_BYTES = 256 * 1024;

/** Whether the request has a body still (partly) unread when its answer starts. */
function unreadBody(req: IncomingMessage & { _consuming?: boolean }): { unread: boolean; small: boolean } {
  if (req.complete) return { unread: false, small: true };
  const declared = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (!chunked && (declared === undefined || Number(declared) === 0)) return { unread: false, small: true };
  // A body already partly read (a cap reached mid-stream): how much is left is unknown.
  return { unread: true, small: !chunked && !req._consuming && Number(declared) <= DRAIN_LIMIT_BYTES };
}

/** Express middleware: marks an early answer to a large unread body `Connection: close`. */
export function closeOnEarlyAnswer(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const { unread, small } = unreadBody(req);
    if (unread && !small && !this.headersSent) this.setHeader("Connection", "close");
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
  next();
}
