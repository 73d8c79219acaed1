// The one upload of a digital edit or translation (spec 3 §3, §5): exactly one .doc/.docx through the portal's upload
// pipeline (content check, size and decompression limits, quotas), stored as a `files` row of kind 'digital' owned
// by the user. Refusals use DIGITAL_ERRORS codes with `params` ({ fileName }): the API answers `{ error, params }`.
import { DIGITAL_ERRORS, DIGITAL_EXTENSIONS } from "#common/digital/constants";
import { fail, type Err } from "#common/result";
import type { Scope } from "../scope";
import type { MultipartBody } from "../kernel/multipart";
import { checkUploadRateLimit, deleteFile, parseUploadRequest, UploadError, type StoredFile } from "../documents/storage";

/** A create refusal as the API says it: `{ error, params }`. */
export const refusal = (code: string, params: Record<string, string | number> = {}): Err => fail(code, { params });

const CODE: Record<string, string> = {
  "file-type-not-allowed": DIGITAL_ERRORS.fileType,
  "too-many-files": DIGITAL_ERRORS.oneFile,
};

export type OneUpload = { ok: true; file: StoredFile; fields: Record<string, string>; discard: () => Promise<void> } | Err;

/** Reads the body: one file and the text fields, or a refusal (nothing kept). */
export async function readOneDocument(scope: Scope, body: MultipartBody, field: string): Promise<OneUpload> {
  const userId = scope.userId!;
  const limited = await checkUploadRateLimit(scope.app, { userId, ip: scope.ip });
  if (!limited.allowed) return fail("too-many-requests", { retryAfterSeconds: limited.retryAfterSeconds });
  const owner = { ownerUserId: userId };
  let files: StoredFile[];
  let fields: Record<string, string>;
  let rejected: { field: string; name: string; code: string }[];
  try {
    ({ files, fields, rejected } = await parseUploadRequest(scope.app, body, {
      ...owner,
      fixedKind: "digital",
      extensions: DIGITAL_EXTENSIONS,
      limits: { maxFiles: 1 },
    }));
  } catch (error) {
    if (error instanceof UploadError) return refusal(CODE[error.code] ?? error.code, error.fileName ? { fileName: error.fileName } : {});
    throw error;
  }
  const discard = async () => {
    for (const f of files) await deleteFile(scope.app, f.id, owner);
  };
  if (files.length + rejected.length > 1) {
    await discard();
    return refusal(DIGITAL_ERRORS.oneFile);
  }
  if (rejected.length) {
    await discard();
    const r = rejected[0];
    return refusal(CODE[r.code] ?? r.code, r.name ? { fileName: r.name } : {});
  }
  if (!files.length) return refusal(DIGITAL_ERRORS.fileRequired, { field });
  return { ok: true, file: files[0], fields, discard };
}

/** The stored file's extension for the engines. */
export const extOf = (name: string): "doc" | "docx" => (name.toLowerCase().endsWith(".doc") ? "doc" : "docx");
