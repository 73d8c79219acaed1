// The linter host (ADR 069): harper-host.mjs in a child process, spawned on first use (or by warmEngine), reused
// across calls, one call at a time, killed on a per-call timeout, replaced when its RSS passes a bound or after
// a number of calls, and killed by stopEngine. Idle, the child does not keep the parent alive (unref), so tests
// and a stopping worker never hang on it.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RawLint } from "./report";

export const HOST_LIMITS = {
  /**
   * A call past callTimeoutMs (+ msPer1000Chars for each 1,000 characters of text, so a 100,000-word thesis is not
   * cut off while a stuck call still ends) is the child's death: killed, the call rejects, the next call starts a
   * new child. Measured: about 3,000 words (≈ 20,000 characters) a second.
   */
  callTimeoutMs: 60_000,
  msPer1000Chars: 300,
  /** After a call, a child past this RSS is replaced (harper's wasm memory only grows). */
  maxRssBytes: 1024 * 1024 * 1024,
  /** After this many calls the child is replaced anyway (bounds slow growth below the RSS bound). */
  maxCalls: 200,
};

/**
 * The child's file, beside this module: the worker runs from source (tsx, vitest). Should this module be reached
 * from the Remix server bundle (build/server), its own location is not the source folder; the project root is the
 * working directory there (npm start).
 */
const HOST_FILE = [
  path.join(path.dirname(fileURLToPath(import.meta.url)), "harper-host.mjs"),
  path.join(process.cwd(), "server", "grammar-check", "engine", "harper-host.mjs"),
].find((file) => fs.existsSync(file)) as string;

/** The engine could not lint (timeout, crash): the job records the assessment as failed. */
export class EngineFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineFailure";
  }
}

interface Reply {
  id: number;
  lints?: RawLint[];
  rss?: number;
  /** CPU time the child spent on the call (user + system). */
  cpuMs?: number;
  error?: string;
}

interface Pending {
  id: number;
  resolve: (lints: RawLint[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let child: ChildProcess | null = null;
let calls = 0;
let lastRss = 0;
let lastCpuMs = 0;
let restarts = 0;
let nextId = 1;
let pending: Pending | null = null;
/** The queue: each call chains on the previous one, so the child sees one request at a time. */
let tail: Promise<unknown> = Promise.resolve();

function kill(reason: string) {
  const dying = child;
  child = null;
  calls = 0;
  if (dying) {
    dying.removeAllListeners();
    dying.kill("SIGKILL");
    restarts++;
  }
  if (pending) {
    const p = pending;
    pending = null;
    clearTimeout(p.timer);
    p.reject(new EngineFailure(reason));
  }
}

function spawnChild(): ChildProcess {
  const proc = fork(HOST_FILE, [], {
    // Only the IPC channel matters; the child's stderr passes through so a crash says why.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    // The parent's tsx/vitest loaders are not needed by plain JavaScript.
    execArgv: [],
    serialization: "advanced",
  });
  proc.on("message", (reply: Reply) => {
    if (!pending || reply.id !== pending.id) return;
    const p = pending;
    pending = null;
    clearTimeout(p.timer);
    idle(proc);
    lastRss = reply.rss ?? lastRss;
    lastCpuMs = reply.cpuMs ?? 0;
    if (reply.error !== undefined) p.reject(new EngineFailure(reply.error));
    else p.resolve(reply.lints ?? []);
  });
  proc.on("exit", (code, signal) => {
    if (child === proc) kill(`grammar engine exited (${signal ?? code})`);
  });
  proc.on("error", (error) => {
    if (child === proc) kill(`grammar engine failed: ${error.message}`);
  });
  idle(proc);
  return proc;
}

/** Idle: the child and its channel stop holding the parent's event loop. */
function idle(proc: ChildProcess) {
  proc.unref();
  (proc.channel as unknown as { unref?: () => void } | undefined)?.unref?.();
}
function busy(proc: ChildProcess) {
  proc.ref();
  (proc.channel as unknown as { ref?: () => void } | undefined)?.ref?.();
}

function callOnce(text: string, dialect: "american" | "british"): Promise<RawLint[]> {
  if (!child) child = spawnChild();
  const proc = child;
  return new Promise<RawLint[]>((resolve, reject) => {
    const id = nextId++;
    const limit = HOST_LIMITS.callTimeoutMs + Math.floor(text.length / 1000) * HOST_LIMITS.msPer1000Chars;
    const timer = setTimeout(() => kill(`grammar engine took longer than ${limit} ms`), limit);
    pending = { id, resolve, reject, timer };
    busy(proc);
    try {
      proc.send({ id, text, dialect });
    } catch (error) {
      // The channel closed under us (the child died between calls): this call fails, the next starts a new child.
      kill(`grammar engine unreachable: ${(error as Error).message}`);
    }
  }).then((lints) => {
    calls++;
    if (lastRss > HOST_LIMITS.maxRssBytes || calls >= HOST_LIMITS.maxCalls) kill("recycled");
    return lints;
  });
}

/** Lints a text in the child, after every call queued before it. */
export function lintInHost(text: string, dialect: "american" | "british"): Promise<RawLint[]> {
  const run = tail.then(
    () => callOnce(text, dialect),
    () => callOnce(text, dialect),
  );
  tail = run.catch(() => undefined);
  return run;
}

/** Kills the child (a call in flight rejects); the next call starts a new one. */
export function stopHost(): void {
  if (child) kill("grammar engine stopped");
}

/** For the bench and the tests: the child's pid, its RSS and CPU time of the last call, calls and restarts so far. */
export function hostStats(): { pid: number | null; rss: number; cpuMs: number; calls: number; restarts: number } {
  return { pid: child?.pid ?? null, rss: lastRss, cpuMs: lastCpuMs, calls, restarts };
}
