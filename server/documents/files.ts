// Where stored files live and what a file id looks like: shared by storage.ts and the analysis job
// (kept apart so that storage.ts → jobs.ts → analysis.ts does not lead back to storage.ts). A file's bytes are in
// the file store (ctx.storage, ADR 078) under `files/<first two characters>/<stored name>`: on the local disk that is
// DATA_DIR/files/…, the layout of every file stored before the store existed.
import path from "node:path";
import type { AppContext } from "../context";

export function filesRoot(ctx: AppContext): string {
  return path.join(ctx.env.DATA_DIR, "files");
}

/** Where a stored file lives on the local disk store: DATA_DIR/files/<first two characters>/<stored name>. */
export function storedPath(ctx: AppContext, storedName: string): string {
  if (!/^[a-f0-9]{32}$/.test(storedName)) throw new Error("invalid stored file name");
  return path.join(filesRoot(ctx), storedName.slice(0, 2), storedName);
}

/** The file store's key of a stored file: files/<first two characters>/<stored name>. */
export function storedKey(storedName: string): string {
  if (!/^[a-f0-9]{32}$/.test(storedName)) throw new Error("invalid stored file name");
  return `files/${storedName.slice(0, 2)}/${storedName}`;
}

/**
 * Runs `fn` with a path on this machine holding the stored file (text extraction, word counts, the grammar
 * engine, Apertium): the file itself on the local disk, a temporary copy removed afterwards with S3.
 */
export function withStoredFile<T>(ctx: AppContext, storedName: string, fn: (path: string) => Promise<T>): Promise<T> {
  return ctx.storage.withLocalCopy(storedKey(storedName), fn);
}

export const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isFileId(value: unknown): value is string {
  return typeof value === "string" && FILE_ID.test(value);
}
