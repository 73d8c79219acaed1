// The last line behind the edge (issue 14, ADR 044). Requests are parsed once at the edge (the API router,
// the page form readers) and integer fields are bounded to their column types (app/common/integers.ts), so
// no bad value should reach PostgreSQL. Should one slip through anyway, PostgreSQL's refusal of it is the
// client's bad input, not the portal failing: it answers 400 instead of 500, and is logged as a warning that
// names the route so the missing check gets added at the edge where it belongs.

/**
 * SQLSTATEs that mean "the value sent was not acceptable", never "the server is broken":
 * 22P02 invalid_text_representation ('abc'::integer, a malformed uuid), 22003 numeric_value_out_of_range
 * (2^53 for an integer), 22021 character_not_in_repertoire (a NUL, bad UTF-8), 54000 program_limit_exceeded
 * (a string too long for an index or a tsvector).
 */
export const BAD_INPUT_SQLSTATES: ReadonlySet<string> = new Set(["22P02", "22003", "22021", "54000"]);

/** The SQLSTATE when `error` (or its cause) is PostgreSQL refusing a value; null otherwise. */
export function badInputSqlState(error: unknown): string | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && BAD_INPUT_SQLSTATES.has(code)) return code;
  }
  return null;
}

/** The warning logged for one: the route and the SQLSTATE (not the value: it is the client's input). */
export function badInputLog(route: string, sqlState: string) {
  return [{ route, sqlState }, "bad input reached the database: answered 400; add the check at the edge"] as const;
}

// ---- Pages ----------------------------------------------------------------------------------------
// Remix catches a loader's or action's error itself and renders the error boundary with a 500 (documents
// and single-fetch `.data` requests alike). `handleError` (app/entry.server.tsx) marks the request's load
// context when the error was bad input; the status of the response is then 400.

const marked = new WeakSet<object>();

/** Records that this request's loader or action failed on bad input (called from handleError). */
export function markBadInput(loadContext: object): void {
  marked.add(loadContext);
}

/**
 * Wraps `res.status` of one page request so that a 5xx Remix sets after `markBadInput` becomes a 400
 * (a 503 of a database outage stays). `loadContext` is read when the status is set.
 */
export function downgradeBadInputStatus(res: { status(code: number): unknown }, loadContext: () => object | undefined): void {
  const status = res.status.bind(res);
  res.status = (code: number) => {
    const ctx = loadContext();
    return status(code >= 500 && code !== 503 && ctx && marked.has(ctx) ? 400 : code);
  };
}
