// The one shape every domain function answers with, and the one table that
// turns its error codes into HTTP statuses (pages and the JSON API alike).
//
// - `error` is a short code ("not-found", "word-count-required"): the API's `error`.
// - `fieldErrors` maps a form field to a translation key of the area's namespace
//   ("order:errors.word-count-required"); pages show the key translated, the API
//   shows its last segment (`errorCode`).

export type FieldErrors = Record<string, string>;

export type Ok<T> = { ok: true; value: T };
export type Err = { ok: false; error: string; fieldErrors: FieldErrors; details?: Record<string, unknown> };
export type Result<T = undefined> = Ok<T> | Err;

export function ok(): Ok<undefined>;
export function ok<T>(value: T): Ok<T>;
export function ok<T>(value?: T): Ok<T | undefined> {
  return { ok: true, value };
}

/** An error with no field: `fail("not-found")`. Extra `details` (e.g. retryAfterSeconds) travel to the API answer. */
export function fail(error: string, details?: Record<string, unknown>): Err {
  return details ? { ok: false, error, fieldErrors: {}, details } : { ok: false, error, fieldErrors: {} };
}

/**
 * Field errors: `invalid({ wordCount: "order:errors.word-count-required" })`. The error code is the
 * first field's code unless one is given.
 */
export function invalid(fieldErrors: FieldErrors, error?: string): Err {
  const first = Object.values(fieldErrors)[0];
  return { ok: false, error: error ?? (first ? errorCode(first) : "invalid"), fieldErrors };
}

/** "order:errors.word-count-required" → "word-count-required"; a bare code is returned as it is. */
export function errorCode(key: string): string {
  const afterNs = key.includes(":") ? key.slice(key.indexOf(":") + 1) : key;
  return afterNs.split(".").pop() ?? afterNs;
}

/** Field errors as the API shows them: `{ field: "short-code" }`. */
export function fieldErrorCodes(fieldErrors: FieldErrors): Record<string, string> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, key]) => [field, errorCode(key)]));
}

/** Field errors as conform's `submission.reply({ fieldErrors })` takes them. */
export function conformErrors(fieldErrors: FieldErrors): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, key]) => [field, [key]]));
}

/**
 * The one table from error codes to HTTP statuses. A code not listed is a 400 (bad input).
 * Add a code here when a new area introduces one that is not a plain validation failure.
 */
export const ERROR_STATUS: Record<string, number> = {
  unauthorized: 401,
  "sign-in-required": 401,
  "invalid-credentials": 401,
  "wrong-password": 401,
  forbidden: 403,
  "not-allowed": 403,
  "currency-change-not-allowed": 403,
  "local-auth-disabled": 403,
  "cross-site-request-refused": 403,
  "email-not-verified": 403,
  "not-found": 404,
  "promo-code-not-applied": 404,
  "method-not-allowed": 405,
  conflict: 409,
  "not-eligible": 409,
  "order-form-placed": 409,
  "already-exists": 409,
  gone: 410,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "too-many-attempts": 429,
  "too-many-requests": 429,
  "rate-limited": 429,
  "upload-rate-limited": 429,
  "service-unavailable": 503,
  // Certificates and delivered files (issue 11 §5, §6; ADR 033).
  "download-not-available": 403,
  "certificate-verification-error": 404,
  "certificate-not-viewable": 409,
  // The order's life (ADR 029): the order is not in a state the change leaves from.
  "invalid-transition": 409,
  "no-deliverables": 409,
  "not-completed": 409,
  "order-cancelled": 409,
  // Payments (issue 12, ADR 034).
  "payment-declined": 402,
  "payment-in-progress": 409,
  // ADR 051: another attempt is open (its id and page travel in the details); a balance asked for is gone.
  "payment-pending": 409,
  "balance-unavailable": 409,
  "invoice-already-paid": 409,
  "idempotency-key-reused": 422,
  "idempotency-key-in-progress": 409,
  "provider-unavailable": 503,
  "not-refundable": 409,
  "refund-failed": 409,
  // Fapiao (issue 13, ADR 042): the document does not take one (now), or the fapiao is not in a state for the change.
  "fapiao-not-available": 409,
  "fapiao-us-prepayment": 409,
  "invoice-not-paid": 409,
  "fapiao-already-requested": 409,
  "fapiao-already-issued": 409,
  "fapiao-not-cancellable": 409,
  // Decided where they were answered until issue 21 §6 gathered them here (ADR 057).
  "deadline-mismatch": 409,
  "order-not-editable": 409,
  "order-paid": 409,
  "email-already-exists": 409,
  "voucher-not-found": 404,
  "statement-of-delivery-pending": 409,
  "sandbox-done": 409,
  // Uploads (server/documents/storage.ts UploadError).
  "file-too-large": 413,
  "file-type-not-allowed": 415,
  "too-many-files": 413,
  "storage-quota-exceeded": 413,
  // The grammar check (issue 23, ADR 070): only a failed assessment may be deleted.
  "assessment-not-failed": 409,
};

export function errorStatus(error: string): number {
  return ERROR_STATUS[error] ?? 400;
}
