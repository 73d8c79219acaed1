// Where stored files live and what a file id looks like: shared by storage.ts and the analysis job
// (kept apart so that storage.ts → jobs.ts → analysis.ts does not lead back to storage.ts).
import path from "node:path";
import type { AppContext } from "../context";

export function filesRoot(ctx: AppContext): string {
  return path.join(ctx.env.DATA_DIR, "files");
}

/** Where a stored file lives: DATA_DIR/files/<first two characters>/<stored name>. */
export function storedPath(ctx: AppContext, storedName: string): string {
  if (!/^[a-f0-9]{32}$/.test(storedName)) throw new Error("invalid stored file name");
  return path.join(filesRoot(ctx), storedName.slice(0, 2), storedName);
}

export const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isFileId(value: unknown): value is string {
  return typeof value === "string" && FILE_ID.test(value);
}
