// The local-disk store: key `a/b/c` is DATA_DIR/a/b/c, today's layout (files/<shard>/<name>, testimonials/<photo>),
// so a portal that stored files before ADR 078 keeps serving them. Files are written 0600 in 0700 folders.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { checkKey, StoredObjectMissing, type FileStore } from "./types";

const missing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === "ENOENT";

export class LocalFileStore implements FileStore {
  readonly kind = "local" as const;
  readonly spoolDir: string;
  constructor(readonly root: string) {
    this.spoolDir = path.join(root, "files", "tmp");
  }

  /** The file of a key on this disk. */
  pathOf(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, source: Readable): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // Written beside its place and renamed: a reader never sees half a file, a crash leaves only the .part.
    const part = `${target}.${randomBytes(6).toString("hex")}.part`;
    try {
      // flush: on disk before it is renamed into place (ADR 046), as an upload's spool file is.
      await pipeline(source, fs.createWriteStream(part, { flags: "wx", mode: 0o600, flush: true }));
    } catch (error) {
      await fsp.rm(part, { force: true });
      throw error;
    }
    await fsp.rename(part, target);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    try {
      await fsp.rename(localPath, target);
    } catch (error) {
      // A spool on another file system (EXDEV): copy, then remove the spool file.
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      await this.put(key, fs.createReadStream(localPath));
      await fsp.rm(localPath, { force: true });
    }
  }

  async read(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(this.pathOf(key), "r");
    } catch (error) {
      if (missing(error)) throw new StoredObjectMissing(key);
      throw error;
    }
    return fh.createReadStream({ highWaterMark: 64 * 1024, start: range?.start, end: range?.end });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const stat = await fsp.stat(this.pathOf(key));
      return stat.isFile() ? { size: stat.size } : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async withLocalCopy<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const file = this.pathOf(key);
    try {
      await fsp.access(file, fs.constants.R_OK);
    } catch (error) {
      if (missing(error)) throw new StoredObjectMissing(key);
      throw error;
    }
    return fn(file);
  }

  close(): void {}
}
