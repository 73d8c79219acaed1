// The console's error codes as translation keys (isomorphic): its own in `staffops:errors.*`, the upload codes of
// the file store in `order:errors.*` (the wizard's wording: the same checks refuse the same files).

/** Codes the console explains itself. */
export const CONSOLE_ERRORS = [
  "not-found",
  "not-allowed",
  "invalid-transition",
  "no-deliverables",
  "not-completed",
  "no-invoice",
  "invoice-void",
  "order-cancelled",
  "no-files",
  "bad-form",
  "amount-exceeds-balance",
] as const;

/** Upload refusals of server/documents/storage (UploadErrorCode) and the upload rate limit. */
export const UPLOAD_ERRORS = [
  "file-too-large",
  "file-type-not-allowed",
  "too-many-files",
  "empty-file",
  "invalid-request",
  "upload-rate-limited",
  "rate-limited",
  "storage-quota-exceeded",
] as const;

export function uploadErrorKey(code: string): string {
  return (UPLOAD_ERRORS as readonly string[]).includes(code) ? `order:errors.${code}` : "staffops:errors.upload-failed";
}

export function consoleErrorKey(code: string): string {
  if ((CONSOLE_ERRORS as readonly string[]).includes(code)) return `staffops:errors.${code}`;
  return uploadErrorKey(code);
}
