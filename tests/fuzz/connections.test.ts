// The fuzz suite's connection inputs (issue 20 §3, ADR 047), over raw sockets against a portal in a process of
// its own (tests/fuzz/child-portal.ts): for every page action and API endpoint that reads a body, a multipart
// part that never closes, a body short of its Content-Length (the client hangs up, or stalls on a sample of the
// targets), hang-ups after 1 byte, after a part's headers and in the middle of a file, gzip and deflate bodies
// and encodings nobody takes; odd methods on pages, and once the asterisk and absolute-form targets and paths
// that decode to a backslash or a control character. After each input the process must still answer /healthz
// with the same pid. A process that dies is started again and the inputs that were in flight are replayed one
// at a time, so the report names the input that killed it. Counts per kind and status are printed and written
// to .test-results/fuzz-connections.json.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargets, pageTargets, sessionEndingLast, sharedFormFields } from "./targets";
import { connectionCases, identitiesFor, oddRequestCases, type ConnectionCase, type PortalInfo } from "./connections";
import { health, sendRaw, type RawAnswer } from "../helpers/raw-socket";
import { pool } from "./send";

const PARALLEL = 6;
/** Every STALL_EVERY-th target also gets the stalled body (about a second each, the portal's request deadline). */
const STALL_EVERY = 3;
/** Inputs finished this recently before a death are replayed alone; alone, each gets this long to kill the process. */
const RECENT_MS = 500;
const SOLO_SETTLE_MS = 300;

interface Portal {
  process: ChildProcess;
  info: PortalInfo;
  pid: number;
  /** Increases with each start: an input that began under an earlier one is replayed. */
  generation: number;
  output(): string;
  exited: Promise<number | null>;
}

let portal: Portal | null = null;
let generation = 0;
/** What each portal that died printed last (its unhandled rejection, Node's exit message). */
const deaths: string[] = [];
/**
 * 5xx answers and unhandled errors the portals logged (at level error): a 500 for a client that has hung up
 * reaches nobody but the logs, and an unhandled rejection that does not kill the process still must not happen.
 */
const loggedErrors: string[] = [];
/** Each input's request id (X-Request-Id), so a log line names the input it belongs to. */
const byRequestId = new Map<string, string>();
let requestSeq = 0;

/** Reads the portal's log lines (pino JSON) for loggedErrors. */
function watchLog(line: string) {
  if (!line.startsWith("{")) return;
  try {
    const entry = JSON.parse(line) as {
      msg?: string;
      status?: number;
      requestId?: string;
      method?: string;
      url?: string;
      err?: { message?: string };
    };
    const input = byRequestId.get(entry.requestId ?? "") ?? `${entry.method ?? "?"} ${entry.url ?? "?"}`;
    if (entry.msg === "request" && (entry.status ?? 0) >= 500) loggedErrors.push(`${input}: ${entry.status} (logged)`);
    else if (/unhandled|uncaught/i.test(entry.msg ?? "")) loggedErrors.push(`${input}: ${entry.msg}: ${entry.err?.message ?? ""}`);
  } catch {
    // not a log line
  }
}

async function startPortal(): Promise<Portal> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/fuzz/child-portal.ts"], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let partial = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) watchLog(line);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const info = await new Promise<PortalInfo & { pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fuzz portal did not start within 60 s:\n${output}`)), 60_000);
    const onData = () => {
      const line = /FUZZ-PORTAL (\{.*\})\n/.exec(output);
      if (!line) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      const parsed = JSON.parse(line[1]) as Omit<PortalInfo, "port"> & { pid: number };
      resolve({ ...parsed, port: Number(new URL(parsed.url).port) });
    };
    child.stdout!.on("data", onData);
    void exited.then((code) => reject(new Error(`the fuzz portal exited (${code}) before it served:\n${output}`)));
  });
  return { process: child, info, pid: info.pid, generation: ++generation, output: () => output, exited };
}

async function stopPortal(p: Portal | null): Promise<void> {
  if (!p || p.process.exitCode !== null || p.process.signalCode !== null) return;
  p.process.kill("SIGTERM");
  const killer = setTimeout(() => p.process.kill("SIGKILL"), 5_000);
  await p.exited;
  clearTimeout(killer);
}

beforeAll(async () => {
  portal = await startPortal();
}, 90_000);
afterAll(async () => stopPortal(portal));

describe("fuzz: bodies and connections", () => {
  it(
    "every body-reading target survives broken bodies and hang-ups: the same process answers /healthz after each input",
    async () => {
      const formFields = await sharedFormFields();
      // FUZZ_TARGETS (a regular expression over "METHOD /pattern") narrows the run to reproduce a failure.
      const only = process.env.FUZZ_TARGETS ? new RegExp(process.env.FUZZ_TARGETS) : null;
      const targets = sessionEndingLast([
        ...(await pageTargets(formFields)),
        ...apiTargets().filter((t) => t.body === "json" || t.body === "stream"),
      ]).filter((t) => !only || only.test(`${t.method} ${t.pattern}`));
      if (!only) {
        expect(targets.filter((t) => t.kind === "page").length).toBeGreaterThan(30);
        expect(targets.filter((t) => t.body === "stream").length).toBeGreaterThanOrEqual(3);
      }
      const cases: ConnectionCase[] = [...oddRequestCases()];
      targets.forEach((t, i) => {
        for (const who of identitiesFor(t)) cases.push(...connectionCases(t, who, { stall: i % STALL_EVERY === 0 }));
      });

      const counts: Record<string, Record<string, number>> = {};
      const failures: string[] = [];
      const crashes: string[] = [];
      let inputs = 0;
      let healthChecks = 0;
      const started = performance.now();

      const describeCase = (c: ConnectionCase, info: PortalInfo) => {
        const r = c.request(info);
        return `${c.who} ${r.method} ${r.target.slice(0, 100)} (${c.kind})`;
      };
      const record = (c: ConnectionCase, a: RawAnswer, info: PortalInfo) => {
        inputs++;
        const key = a.status > 0 ? String(a.status) : a.end;
        const row = (counts[c.kind] ??= {});
        row[key] = (row[key] ?? 0) + 1;
        const at = describeCase(c, info);
        if (a.status >= 500) return void failures.push(`${at}: ${a.status} ${a.text.slice(0, 160).replace(/\s+/g, " ")}`);
        if (c.expect === "none") return;
        if (a.end === "timeout") return void failures.push(`${at}: no answer and no close within ${a.ms} ms`);
        if (a.end === "error") return void failures.push(`${at}: connection failed (${a.error})`);
        if (c.expect === "4xx" && !(a.status >= 400 && a.status < 500)) failures.push(`${at}: ${a.status || a.end}, not a 4xx`);
        if (c.expect === "refused") {
          if (![400, 404, 405].includes(a.status)) failures.push(`${at}: ${a.status || a.end}, not 400, 404 or 405`);
          else if (a.status === 405 && !a.headers.allow) failures.push(`${at}: 405 without Allow`);
        }
      };

      // A dead or replaced process: start a new one (once per death), and replay the inputs that were in flight.
      const inFlight = new Set<ConnectionCase>();
      const suspects = new Set<ConnectionCase>();
      // A rejection may kill the process just after its answer went out and its own health check passed: the
      // inputs finished within the last RECENT_MS are suspects too.
      const recent: { c: ConnectionCase; at: number }[] = [];
      let restarting: Promise<void> | null = null;
      const restart = (dead: Portal, why: string) => {
        if (portal !== dead) return restarting ?? Promise.resolve();
        restarting ??= (async () => {
          deaths.push(`${why}; last output:\n${dead.output().slice(-3_000)}`);
          await stopPortal(dead);
          portal = await startPortal();
          restarting = null;
        })();
        return restarting;
      };
      /** One input, then /healthz; true when the process survived it (or it was replayed for want of knowing). */
      const run = async (c: ConnectionCase, solo: boolean): Promise<boolean> => {
        if (restarting) await restarting;
        const p = portal!;
        inFlight.add(c);
        const request = c.request(p.info);
        const requestId = `fuzz-connection-${++requestSeq}`;
        byRequestId.set(requestId, describeCase(c, p.info));
        const answer = await sendRaw(p.info.port, { ...request, headers: { ...request.headers, "x-request-id": requestId } });
        // Alone, the input has the time to kill the process before the check (a rejection after the answer).
        if (solo) await sleep(SOLO_SETTLE_MS);
        const h = await health(p.info.port);
        healthChecks++;
        inFlight.delete(c);
        if (p !== portal) {
          // The process this input was sent to died meanwhile (perhaps of another input): try it again alone.
          suspects.add(c);
          return true;
        }
        if (!h.ok || h.pid !== p.pid) {
          const why = h.ok ? `the process changed (pid ${p.pid} → ${h.pid})` : `/healthz failed (${h.error})`;
          if (solo) crashes.push(`${describeCase(c, p.info)}: ${why}`);
          else {
            const since = performance.now() - RECENT_MS;
            for (const other of [c, ...inFlight, ...recent.filter((r) => r.at >= since).map((r) => r.c)]) suspects.add(other);
          }
          await restart(p, `${describeCase(c, p.info)}: ${why}`);
          return false;
        }
        record(c, answer, p.info);
        recent.push({ c, at: performance.now() });
        if (recent.length > 200) recent.splice(0, 100);
        return true;
      };

      await pool(cases, PARALLEL, async (c) => void (await run(c, false)));
      // The inputs that were in flight when a process died, one at a time: the ones that kill it again are named.
      for (const c of [...suspects]) {
        suspects.delete(c);
        await run(c, true);
      }

      const seconds = Math.round((performance.now() - started) / 1000);
      const sorted = Object.fromEntries(
        Object.entries(counts)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, row]) => [k, Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))]),
      );
      const fivexx = Object.values(counts)
        .flatMap((row) => Object.entries(row))
        .filter(([s]) => Number(s) >= 500)
        .reduce((n, [, v]) => n + v, 0);
      console.log(
        `fuzz connections: ${inputs} inputs over ${targets.length} body-reading targets (${
          targets.filter((t) => t.kind === "page").length
        } page actions, ${targets.filter((t) => t.kind === "api").length} API endpoints), ${healthChecks} health checks; ` +
          `per kind and status ${JSON.stringify(sorted)}; ${fivexx} × 5xx; ${crashes.length} inputs killed the process ` +
          `(${deaths.length} deaths); ${loggedErrors.length} errors logged; ${seconds} s`,
      );
      fs.mkdirSync(".test-results", { recursive: true });
      fs.writeFileSync(
        ".test-results/fuzz-connections.json",
        JSON.stringify({ counts: sorted, crashes, failures, loggedErrors, deaths }, null, 1),
      );
      expect(crashes, `inputs that killed the process (${deaths.length} deaths)`).toEqual([]);
      // A death no single input repeats (two inputs together?) fails too; its output is in the JSON file.
      expect(deaths.length, deaths.join("\n\n").slice(0, 4_000)).toBe(0);
      expect(failures.slice(0, 60), `${failures.length} failures`).toEqual([]);
      expect(loggedErrors.slice(0, 30), `${loggedErrors.length} errors logged by the portal`).toEqual([]);
    },
    // About a minute on this machine (ADR 047); the timeout leaves room for a loaded one and for restarts.
    480_000,
  );
});
