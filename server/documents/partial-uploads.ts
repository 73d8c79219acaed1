// Partial uploads (ADR 046): an upload is streamed to DATA_DIR/files/tmp/<random>.part and only renamed into
// place and recorded once it is whole and checked (storage.ts), so a web process killed mid-upload leaves a
// .part that nothing lists or serves. This sweeps those leftovers. Apart from storage.ts, so the hourly file
// job can run it without importing the upload module (which imports the jobs).
import fsp from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";

/**
 * How long a partial upload may go unwritten before it is taken for the leftover of a dead process: an upload
 * over HTTP cannot outlive the server's request timeout (server/boot.ts), and checking and recording a received
 * file takes seconds, so a minute more is a wide margin. Other web processes may share DATA_DIR: a fresh
 * .part may be theirs, still arriving.
 */
export function tempUploadMaxAgeMs(env: Pick<AppContext["env"], "HTTP_REQUEST_TIMEOUT_MS" | "HTTP_HEADERS_TIMEOUT_MS">): number {
  return Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS) + 60_000;
}

const COPY_MAX_AGE_MS = 24 * 3600_000;

/**
 * Removes partial uploads left in DATA_DIR/files/tmp by a process that died mid-upload (not written for
 * `olderThanMs`, default tempUploadMaxAgeMs). Runs when a web process starts and with the hourly file expiry
 * (ADR 046). Returns how many were removed.
 */
export async function sweepTempUploads(ctx: AppContext, olderThanMs = tempUploadMaxAgeMs(ctx.env)): Promise<number> {
  // The spool is this machine's, whatever the store (ADR 078): DATA_DIR/files/tmp.
  const dir = ctx.storage.spoolDir;
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    // A local copy of a stored object (`<random>.copy<ext>`, ADR 078) lives while one job reads it: a day is
    // far past any job's lease, so one that old was left by a killed process.
    const copy = /^[0-9a-f]{32}\.copy(\.[a-z0-9]+)?$/.test(name);
    if (!name.endsWith(".part") && !copy) continue;
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > (copy ? Math.max(olderThanMs, COPY_MAX_AGE_MS) : olderThanMs)) {
      await fsp.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
