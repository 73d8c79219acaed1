// What a web process does with failures outside every handler (issue 20 §2): an unhandled rejection is logged
// with its request id and the process keeps serving; an uncaught exception is logged as fatal with its request id
// and the process exits with status 1 after onFatal, for its primary to replace it. Real processes: the guard's
// handlers are process-wide, so they are exercised in a child of their own.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { restartDelayMs } from "../../server/process-guard";

describe("the process guard", () => {
  it("logs an unhandled rejection with its request and keeps running; exits 1 on an uncaught exception", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "tests/faults/fixtures/process-guard-child.ts"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    const lines = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const rejection = lines.find((l) => l.msg === "unhandled rejection");
    expect(rejection).toMatchObject({ level: 50, requestId: "req-rejected-0001", url: "/api/certificate/X/check-file" });
    expect((rejection!.err as { message: string }).message).toBe("Unexpected end of form");
    expect(lines.some((l) => l.msg === "still running")).toBe(true);
    const fatal = lines.find((l) => l.level === 60);
    expect(fatal).toMatchObject({ requestId: "req-thrown-0002", method: "GET" });
    expect((fatal!.err as { message: string }).message).toBe("a listener threw");
    expect(lines.some((l) => l.msg === "onFatal ran")).toBe(true);
    expect(lines.some((l) => l.msg === "should never print")).toBe(false);
    expect(run.status).toBe(1);
  });

  it("restarts at once after a long-lived process, then backs off to 30 s while processes die young", () => {
    expect(restartDelayMs(1)).toBe(0);
    expect(restartDelayMs(2)).toBe(250);
    expect(restartDelayMs(3)).toBe(500);
    expect(restartDelayMs(6)).toBe(4000);
    expect(restartDelayMs(20)).toBe(30_000);
  });
});
