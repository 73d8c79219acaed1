// How the API shows a body or query that fails its zod schema (ADR 013): 400 `{ error, fieldErrors }`,
// where `error` is the first field's code. Shared by the router and the few handlers that parse with a
// schema they build per request (registration's country list).
import { fieldErrorCodes } from "#common/result";

export interface SchemaError {
  /** The first failing field's code ("invalid" when there is none). */
  error: string;
  /** `{ field: code }`: a message that is a translation key gives its code, anything else "invalid". */
  fieldErrors: Record<string, string>;
}

/** zod issues → `{ field: key-or-"invalid" }`, the first issue of each field (a nested field is `a.b`). */
function issuesToFieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "body";
    out[field] ??= /^[a-z-]+:[\w.-]+$/i.test(issue.message) ? issue.message : "invalid";
  }
  return out;
}

export function schemaError(issues: readonly { path: readonly PropertyKey[]; message: string }[]): SchemaError {
  const fieldErrors = fieldErrorCodes(issuesToFieldErrors(issues));
  return { error: Object.values(fieldErrors)[0] ?? "invalid", fieldErrors };
}
