// A multipart body as domain code sees it (ADR 059): its parts, text fields and file streams, handed over as they
// arrive, and never the fetch Request they come in. An adapter (an endpoint table, a route module) makes one with
// `multipartBody(request)` of server/http/multipart.ts, whose reader keeps ADR 047/050's guarantees (every part's
// stream consumed or destroyed, every consumer settled before read() returns or throws); domain code only says
// what to do with each part. On the lowest floor so that documents, certificates, fapiao and staff can all name
// it without loading the HTTP layer.
import type { Readable } from "node:stream";
import type busboy from "busboy";

export type MultipartErrorCode = "invalid-request" | "payload-too-large";

export class MultipartError extends Error {
  constructor(readonly code: MultipartErrorCode) {
    super(code);
  }
}

export interface FilePart {
  field: string;
  /** The name the browser sent (never empty: a file input left empty is drained, not reported). */
  filename: string;
  stream: Readable;
}

export interface MultipartOptions {
  /** Largest body accepted, in bytes (checked against Content-Length first, then counted as it arrives). */
  maxBody: number;
  limits: busboy.Limits;
  onField?(name: string, value: string): void;
  /**
   * Each file part; the caller consumes the stream (or resumes it to skip the file) and returns the promise of that
   * work, which the reader awaits (and whose rejection it handles) on every path. Never keep such a promise
   * only to yourself: a body cut short rejects it while nobody listens.
   */
  onFile(part: FilePart): Promise<unknown> | void;
  /** Busboy reached `limits.files`. */
  onFilesLimit?(): void;
}

/** The parts of one request body, read once. */
export interface MultipartBody {
  /** The request says it carries a multipart form and has a body (checked before a rate limit is spent on it). */
  readonly isMultipart: boolean;
  /**
   * Reads the whole body, handing each field and file part to `options`; resolves when it has been read and every
   * file consumer has settled. Rejects with MultipartError when the body is refused or malformed, or with a
   * consumer's own error when the body was fine but a consumer failed.
   */
  read(options: MultipartOptions): Promise<void>;
}
