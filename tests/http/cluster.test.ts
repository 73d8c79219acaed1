// npm start with WEB_CONCURRENCY: several processes sharing one port on PostgreSQL with Redis;
// one process, with the reason said, on embedded PGlite (it lives in one process).
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freshDatabase } from "../helpers/template";

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
let child: ChildProcess | null = null;
let dataDir: string | null = null;

afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  child = null;
  dataDir = null;
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The portal processes whose parent is `pid` (Linux /proc): cluster workers run the same script; tsx may run an esbuild helper too. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
        const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, "utf8").includes("scripts/start.ts");
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function start(env: Record<string, string>) {
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-cluster-"));
  child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", WEB_CONCURRENCY: "2", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const started = Date.now();
  while (!out.includes("Stop with Ctrl+C.")) {
    if (child.exitCode !== null) throw new Error(`the portal exited: ${out}`);
    if (Date.now() - started > 50_000) throw new Error(`the portal did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base: `http://127.0.0.1:${port}`, output: () => out, proc: child };
}

async function stop(proc: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  proc.kill("SIGTERM");
  return exited;
}

describe("WEB_CONCURRENCY", () => {
  it(
    shared ? "serves from two processes on one port and stops them all" : "runs one process on embedded PGlite and says why",
    async () => {
      const env: Record<string, string> = shared
        ? { DATABASE_URL: await freshDatabase(process.env.DATABASE_URL!, "cluster"), REDIS_PREFIX: `cluster:${process.pid}:` }
        : {};
      const { base, output, proc } = await start(env);
      if (shared) {
        expect(output()).toContain("processes: 2 (WEB_CONCURRENCY)");
        expect(childrenOf(proc.pid!)).toHaveLength(2);
      } else {
        expect(output()).toContain("One process: several processes need DATABASE_URL (PostgreSQL) and REDIS_URL");
        expect(childrenOf(proc.pid!)).toHaveLength(0);
      }
      // The demo accounts are seeded once and printed once.
      expect(output().match(/researcher@example\.com/g)).toHaveLength(1);
      for (let i = 0; i < 6; i++) {
        expect((await fetch(`${base}/en/login`)).status).toBe(200);
        const health = await (await fetch(`${base}/healthz`)).json();
        expect(health.database).toMatchObject({ kind: process.env.DATABASE_URL ? "postgres" : "pglite", ok: true });
      }
      const workers = childrenOf(proc.pid!);
      expect(await stop(proc)).toBe(0);
      for (const pid of workers) expect(fs.existsSync(`/proc/${pid}`), `worker ${pid} still running`).toBe(false);
    },
    90_000,
  );
});
