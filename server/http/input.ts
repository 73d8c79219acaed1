// Text no person types and PostgreSQL cannot store: a NUL character (refused by `text` columns with
// "invalid byte sequence") and a lone UTF-16 surrogate (not valid UTF-8 at all). Refused once at the edges
// (the API router, the page form readers, the URL check in app.ts) so no endpoint ever hands them to the
// database and answers 500 (issue 9 §3.1, ADR 018).

/** A NUL, or a high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag). */
// eslint-disable-next-line no-control-regex -- the NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isUnstorable(text: string): boolean {
  return UNSTORABLE.test(text);
}

/**
 * Where the first unstorable string (a key or a value) of a parsed JSON value is, as `a.b.0` (`body` at the top);
 * null when none. Walked with a stack of its own, not by recursion: a body nested 10,000 deep (20 kB of `{"a":`)
 * overflowed the call stack and answered 500 (issue 14's fuzz suite, ADR 043).
 */
export function findUnstorable(value: unknown, at = ""): string | null {
  // Each entry keeps its parent, so a path is spelled only for the one found (not 10,000 growing strings).
  interface Node {
    item: unknown;
    key: string;
    parent: Node | null;
  }
  const pathOf = (node: Node | null): string => {
    const keys: string[] = [];
    for (let n = node; n; n = n.parent) if (n.key) keys.push(n.key);
    return keys.reverse().join(".") || "body";
  };
  const stack: Node[] = [{ item: value, key: at, parent: null }];
  while (stack.length) {
    const node = stack.pop()!;
    const { item } = node;
    if (typeof item === "string") {
      if (isUnstorable(item)) return pathOf(node);
      continue;
    }
    const entries: [string, unknown][] = Array.isArray(item)
      ? item.map((v, i) => [String(i), v])
      : item && typeof item === "object"
        ? Object.entries(item)
        : [];
    if (!Array.isArray(item)) for (const [key] of entries) if (isUnstorable(key)) return pathOf(node);
    // Reversed, so the first field is looked at first (the order of a depth-first walk).
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ item: entries[i][1], key: entries[i][0], parent: node });
  }
  return null;
}

/** The first unstorable field name or value of a form (FormData, URLSearchParams or a plain record); null when none. */
export function findUnstorableField(fields: FormData | URLSearchParams | Record<string, string>): string | null {
  const entries = fields instanceof FormData || fields instanceof URLSearchParams ? [...fields.entries()] : Object.entries(fields);
  for (const [key, value] of entries) if (isUnstorable(key) || (typeof value === "string" && isUnstorable(value))) return key;
  return null;
}

/** What no address of the portal holds, decoded: a control character (NUL, tab, line breaks, DEL) or a backslash. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const PATH_NEVER = /[\u0000-\u001f\u007f\\]/;

/**
 * What is wrong with a request URL, before any router reads it: `invalid-path` for a percent-escape that
 * does not decode (`/en/%E0%A4%A`, which made Remix throw) or a NUL in the decoded path, or a backslash or
 * another control character there (`/%5C/login`, `/%09/login`: a URL parser reads `\` as `/` and drops tabs and
 * line breaks, so the router's `new URL("/\\")` met an empty host and threw, ADR 047), `invalid-query` for
 * a NUL in a query name or value. Malformed escapes in the query are left alone: every reader of the query
 * (URLSearchParams, Express) decodes them leniently.
 */
export function urlProblem(url: string): "invalid-path" | "invalid-query" | null {
  const q = url.indexOf("?");
  const rawPath = q < 0 ? url : url.slice(0, q);
  try {
    if (PATH_NEVER.test(decodeURIComponent(rawPath))) return "invalid-path";
  } catch {
    return "invalid-path";
  }
  if (q >= 0) for (const [k, v] of new URLSearchParams(url.slice(q + 1))) if (isUnstorable(k) || isUnstorable(v)) return "invalid-query";
  return null;
}
