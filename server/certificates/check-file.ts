// "Is this the file that was delivered?" (issue 11 §6, beyond the peers): anyone holding a certificate's code
// uploads a file; it is streamed through SHA-256 as it arrives and never written anywhere, and the digest is
// compared with the digests the certificate recorded when it was issued.
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fail, ok, type Result } from "#common/result";
import type { CertifiedFile } from "../../db/types-orders";
import type { Scope } from "../scope";
import { countCertificateLookup, lookupCertificate, type CertificateRecord } from "./lookup";
import { MultipartError, type MultipartBody } from "../kernel/multipart";

/** A file larger than this cannot be checked (larger than any delivered file is the usual case). */
export const CHECK_FILE_MAX_BYTES = 512 * 1024 * 1024;

export interface FileCheck {
  /** The certified file with the same SHA-256, or null: not a file delivered with this certificate. */
  match: CertifiedFile | null;
  sha256: string;
  sizeBytes: number;
  /** The name the uploader's browser gave (shown back, never stored). */
  name: string;
  certificate: CertificateRecord;
}

/**
 * Hashes the first file of a multipart body (field `file`) and reads its text fields (`code`). Nothing is kept:
 * the bytes go through the hash and are dropped.
 */
export async function hashUpload(
  body: MultipartBody,
  maxBytes = CHECK_FILE_MAX_BYTES,
): Promise<Result<{ fields: Record<string, string>; file: { name: string; sha256: string; sizeBytes: number } | null }>> {
  const fields: Record<string, string> = {};
  let file: { name: string; sha256: string; sizeBytes: number } | null = null;
  let hashing: Promise<void> | null = null;
  let tooLarge = false;
  try {
    await body.read({
      maxBody: maxBytes + 64 * 1024,
      limits: { files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50, fileSize: maxBytes },
      onField(name, value) {
        fields[name] = value;
      },
      onFile({ filename, stream }) {
        if (hashing) return void stream.resume();
        const hash = createHash("sha256");
        let size = 0;
        stream.on("limit", () => {
          tooLarge = true;
        });
        hashing = pipeline(
          stream,
          new Writable({
            write(chunk: Buffer, _encoding, callback) {
              size += chunk.length;
              hash.update(chunk);
              callback();
            },
          }),
        ).then(() => {
          file = { name: filename.slice(0, 255), sha256: hash.digest("hex"), sizeBytes: size };
        });
        // The reader owns it: a part that never closes rejects it, handled there (issue 20 §1).
        return hashing;
      },
    });
  } catch (error) {
    return fail(error instanceof MultipartError ? error.code : "invalid-request");
  }
  if (tooLarge) return fail("payload-too-large");
  return ok({ fields, file });
}

/** Compares an uploaded file's digest with a certificate's files: the certified file it is, or null. */
export function matchCertifiedFile(files: CertifiedFile[], sha256: string): CertifiedFile | null {
  return files.find((f) => f.sha256.toLowerCase() === sha256.toLowerCase()) ?? null;
}

/**
 * The check behind the verification page's form and POST /api/certificate/{code}/check-file: reads the upload
 * (the code from `codeInput`, else the form's `code` field), looks the certificate up (rate limited like any
 * lookup) and compares. Errors: `code-required` (certificate:errors), `file-required`, `payload-too-large`,
 * `invalid-request`, `too-many-requests`, `certificate-verification-error`.
 */
export async function checkDeliveredFile(scope: Scope, body: MultipartBody, codeInput?: string): Promise<Result<FileCheck>> {
  // The limit holds before a byte of the body is read: an address over it gets its 429 without costing a read
  // (issue 20 §1). Every check counts, the owner's too: the file check is an upload, not the owner's own reading.
  const limited = await countCertificateLookup(scope);
  if (!limited.ok) return limited;
  const read = await hashUpload(body);
  if (!read.ok) return read;
  const code = codeInput ?? read.value.fields.code ?? "";
  if (!code.trim()) return fail("code-required");
  const found = await lookupCertificate(scope, code, { counted: true });
  if (!found.ok) return found;
  const upload = read.value.file;
  if (!upload) return fail("file-required");
  return ok({
    match: matchCertifiedFile(found.value.files, upload.sha256),
    sha256: upload.sha256,
    sizeBytes: upload.sizeBytes,
    name: upload.name,
    certificate: found.value,
  });
}
