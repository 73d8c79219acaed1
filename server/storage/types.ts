// The one interface every stored file goes through (issue 26 §5, ADR 078): uploaded manuscripts, deliverables,
// generated documents, fapiao PDFs, support attachments, digital tool files (all `files` rows) and testimonial
// photos. Two implementations: the local disk under DATA_DIR (the default; today's layout, so existing data keeps
// working) and any S3-compatible object store, so a second web machine serves what the first one stored.
import type { Readable } from "node:stream";

/** An object that is not in the store (a missing file is an answer, not a crash: callers map it to not-found). */
export class StoredObjectMissing extends Error {
  /** As a missing file on disk: readers that tell `ENOENT` apart (a file-missing reason) need no second case. */
  readonly code = "ENOENT";
  constructor(readonly key: string) {
    super(`stored object missing: ${key}`);
    this.name = "StoredObjectMissing";
  }
}

export interface PutOptions {
  contentType?: string;
}

export interface FileStore {
  /** `local` (DATA_DIR) or `s3`. */
  readonly kind: "local" | "s3";
  /**
   * Where this process spools what it receives before it is checked (uploads: the content checks need the whole
   * file, ADR 046) and where local copies are made: always on this machine's disk (DATA_DIR/files/tmp).
   */
  readonly spoolDir: string;
  /** Streams `source` into `key` (replacing it). Memory stays bounded whatever the size (S3: one part at a time). */
  put(key: string, source: Readable, options?: PutOptions): Promise<void>;
  /**
   * Moves a complete local file (a checked upload in the spool) to `key`; the local file is gone afterwards.
   * Local disk: a rename (no second pass over the bytes); S3: a streamed upload, then the spool file is removed.
   */
  putFile(key: string, localPath: string, options?: PutOptions): Promise<void>;
  /** The object's bytes as a stream (`range`: inclusive byte offsets, as HTTP). Throws StoredObjectMissing. */
  read(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  /** Its size, or null when it is not there. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes it; removing what is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Runs `fn` with a path on this machine's disk holding the object (readers that need a file: word counts,
   * text extraction, the grammar engine, Apertium). Local disk: the real path; S3: a temporary copy, streamed in
   * and removed when `fn` settles. Throws StoredObjectMissing.
   */
  withLocalCopy<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  /** Releases connections (S3 client sockets). */
  close(): void;
}

/**
 * A key is a relative path of lower-case letters, digits, `.`, `_` and `-` segments (`files/ab/ab12…`,
 * `testimonials/<uuid>.jpg`): never absolute, never `..`, so it maps to the same place under DATA_DIR and in a
 * bucket, and a key made from stored data cannot leave either.
 */
export function checkKey(key: string): string {
  if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/.test(key) || key.split("/").some((s) => s === "." || s === ".."))
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}
