import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { lockDataDir, DataDirLockedError } from "../../server/db";

describe("PGlite data directory lock", () => {
  it("refuses a second process and takes over a stale lock", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-lock-"));
    // Another live process holds the lock.
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    fs.writeFileSync(path.join(dir, "pglite.lock"), String(other.pid));
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(/Another portal process \(pid \d+\) is already using/);
    } finally {
      other.kill();
      await new Promise((r) => other.once("exit", r));
    }
    // Its process is gone: the lock is stale and can be taken.
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "pglite.lock"))).toBe(false);
  });
});
