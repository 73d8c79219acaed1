// What a JSON body may look like before any schema reads it (issue 14, ADR 044): nesting at most
// JSON_MAX_DEPTH deep (the portal's deepest body is three levels; a 60,000-deep array would overflow every
// recursive reader after it), and every number one JavaScript holds exactly. `1e309` parses to Infinity and
// 2^53 + 1 or a 40-digit integer to a rounded neighbour: none of them is what the client sent, so none may go on
// to a schema, a domain function or PostgreSQL. Walked without recursion so the walk itself cannot overflow.

export const JSON_MAX_DEPTH = 32;

export type JsonProblem = { kind: "too-deep" } | { kind: "number-out-of-range"; field: string };

export function jsonProblem(value: unknown): JsonProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === "number") {
      if (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v)))
        return { kind: "number-out-of-range", field: path || "body" };
      continue;
    }
    if (!v || typeof v !== "object") continue;
    if (depth >= JSON_MAX_DEPTH) return { kind: "too-deep" };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [key, inner] of entries) stack.push({ value: inner, path: path ? `${path}.${key}` : key, depth: depth + 1 });
  }
  return null;
}
