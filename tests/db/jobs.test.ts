import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { createTestContext, type TestContext } from "../helpers/context";
import { readEnv } from "../../server/env";
import {
  enqueue,
  claimNext,
  completeJob,
  getJob,
  recoverStaleJobs,
  backoffMs,
  createWorker,
  PermanentJobError,
  workersMode,
  type JobHandlers,
} from "../../server/jobs";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

/** A kind of job of its own per test, so tests (and the document jobs) never take each other's jobs. */
const kindOf = (name: string) => `test-${name}-${randomBytes(3).toString("hex")}`;

async function countJobs(kind: string) {
  const row = await t.ctx.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("kind", "=", kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function makeDue(id: string) {
  await t.ctx.db
    .updateTable("jobs")
    .set({ run_at: sql<Date>`now()` })
    .where("id", "=", id)
    .execute();
}

describe("enqueue", () => {
  it("is part of the caller's transaction: a rollback leaves no job", async () => {
    const kind = kindOf("tx");
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        await enqueue(trx, kind, { n: 1 });
        expect(await trx.selectFrom("jobs").select("id").where("kind", "=", kind).execute()).toHaveLength(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await countJobs(kind)).toBe(0);

    const id = await t.ctx.db.transaction().execute((trx) => enqueue(trx, kind, { n: 2 }, { maxAttempts: 7 }));
    const job = await getJob<{ n: number }>(t.ctx.db, id);
    expect(job).toMatchObject({ kind, payload: { n: 2 }, status: "queued", attempts: 0, maxAttempts: 7 });
  });

  it("does not hand out a job before its run_at", async () => {
    const kind = kindOf("later");
    const id = await enqueue(t.ctx.db, kind, {}, { runAt: new Date(Date.now() + 60_000) });
    expect(await claimNext(t.ctx.db, "w1", { kinds: [kind] })).toBeNull();
    await makeDue(id);
    expect((await claimNext(t.ctx.db, "w1", { kinds: [kind] }))?.id).toBe(id);
  });
});

describe("claiming", () => {
  it("never gives one job to two workers", async () => {
    const kind = kindOf("race");
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add(await enqueue(t.ctx.db, kind, { i }));
    // Many claims at once from two workers (real concurrency on PostgreSQL's pool).
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, i) => claimNext(t.ctx.db, i % 2 ? "worker-a" : "worker-b", { kinds: [kind] })),
    );
    const taken = claims.filter((j) => j !== null).map((j) => j!.id);
    expect(taken).toHaveLength(30);
    expect(new Set(taken).size).toBe(30);
    expect(new Set(taken)).toEqual(ids);
    const rows = await t.ctx.db.selectFrom("jobs").select(["status", "attempts", "locked_by"]).where("kind", "=", kind).execute();
    expect(
      rows.every((r) => r.status === "running" && r.attempts === 1 && (r.locked_by === "worker-a" || r.locked_by === "worker-b")),
    ).toBe(true);
  });

  it("two running workers process every job exactly once", async () => {
    const kind = kindOf("pair");
    const seen: string[] = [];
    const handlers: JobHandlers = {
      [kind]: async (_payload, { job, workerId }) => {
        seen.push(`${job.id}:${workerId}`);
        await new Promise((r) => setTimeout(r, 2));
      },
    };
    for (let i = 0; i < 20; i++) await enqueue(t.ctx.db, kind, { i });
    const a = createWorker(t.ctx, handlers, { workerId: "a", pollMs: 10 });
    const b = createWorker(t.ctx, handlers, { workerId: "b", pollMs: 10 });
    const drain = async (w: typeof a) => {
      while (await w.runOnce());
    };
    await Promise.all([drain(a), drain(b)]);
    const ids = seen.map((s) => s.split(":")[0]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    const statuses = await t.ctx.db.selectFrom("jobs").select("status").where("kind", "=", kind).execute();
    expect(statuses.every((r) => r.status === "done")).toBe(true);
  });

  it("only takes kinds the worker has a handler for", async () => {
    const mine = kindOf("mine");
    const other = kindOf("other");
    await enqueue(t.ctx.db, other, {});
    expect(await claimNext(t.ctx.db, "w", { kinds: [mine] })).toBeNull();
    expect(await claimNext(t.ctx.db, "w", { kinds: [] })).toBeNull();
  });
});

describe("failures", () => {
  it("retries with exponential backoff, then marks the job failed after max attempts", async () => {
    const kind = kindOf("flaky");
    let calls = 0;
    const handlers: JobHandlers = {
      [kind]: async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
    };
    const worker = createWorker(t.ctx, handlers, { backoffBaseMs: 60_000, maintenanceEveryMs: 0 });
    const id = await enqueue(t.ctx.db, kind, {}, { maxAttempts: 3 });

    expect(await worker.runOnce()).toBe(true);
    let job = (await getJob(t.ctx.db, id))!;
    expect(job).toMatchObject({ status: "queued", attempts: 1, lastError: "Error: boom 1" });
    const firstDelay = job.runAt.getTime() - Date.now();
    expect(firstDelay).toBeGreaterThan(50_000);
    expect(firstDelay).toBeLessThan(70_000);
    // Not due yet: nothing to run.
    expect(await worker.runOnce()).toBe(false);

    await makeDue(id);
    expect(await worker.runOnce()).toBe(true);
    job = (await getJob(t.ctx.db, id))!;
    expect(job).toMatchObject({ status: "queued", attempts: 2, lastError: "Error: boom 2" });
    const secondDelay = job.runAt.getTime() - Date.now();
    expect(secondDelay).toBeGreaterThan(110_000);
    expect(secondDelay).toBeLessThan(130_000);

    await makeDue(id);
    expect(await worker.runOnce()).toBe(true);
    job = (await getJob(t.ctx.db, id))!;
    expect(job).toMatchObject({ status: "failed", attempts: 3, lastError: "Error: boom 3" });
    const row = await t.ctx.db.selectFrom("jobs").select(["finished_at", "locked_by"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.finished_at).not.toBeNull();
    expect(row.locked_by).toBeNull();
    await makeDue(id);
    expect(await worker.runOnce()).toBe(false);
    expect(calls).toBe(3);
  });

  it("computes the backoff as base · 2^(n−1), capped", () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
    expect(backoffMs(100)).toBe(3_600_000);
  });

  it("does not retry a permanent failure, and succeeds after a transient one", async () => {
    const kind = kindOf("perm");
    const worker = createWorker(
      t.ctx,
      {
        [kind]: async (payload: { mode: string }, { job }) => {
          if (payload.mode === "permanent") throw new PermanentJobError("bad payload");
          if (job.attempts === 1) throw new Error("transient");
        },
      },
      { maintenanceEveryMs: 0 },
    );
    const permanent = await enqueue(t.ctx.db, kind, { mode: "permanent" });
    await worker.runOnce();
    expect(await getJob(t.ctx.db, permanent)).toMatchObject({ status: "failed", attempts: 1, lastError: "PermanentJobError: bad payload" });

    const transient = await enqueue(t.ctx.db, kind, { mode: "transient" });
    await worker.runOnce();
    expect(await getJob(t.ctx.db, transient)).toMatchObject({ status: "queued", attempts: 1 });
    await makeDue(transient);
    await worker.runOnce();
    expect(await getJob(t.ctx.db, transient)).toMatchObject({ status: "done", attempts: 2 });
  });
});

describe("stale locks", () => {
  it("gives a dead worker's job to another worker, and ignores the dead worker afterwards", async () => {
    const kind = kindOf("stale");
    const id = await enqueue(t.ctx.db, kind, {});
    const claimed = await claimNext(t.ctx.db, "dead-worker", { kinds: [kind] });
    expect(claimed?.id).toBe(id);
    const ran: string[] = [];
    const worker = createWorker(
      t.ctx,
      { [kind]: async (_p, { job }) => void ran.push(job.id) },
      { workerId: "alive", staleAfterMs: 10 * 60_000, maintenanceEveryMs: 0 },
    );

    // Locked a minute ago: still fresh, the other worker keeps its hands off.
    await t.ctx.db
      .updateTable("jobs")
      .set({ locked_at: sql<Date>`now() - interval '1 minute'` })
      .where("id", "=", id)
      .execute();
    expect(await worker.runOnce()).toBe(false);

    // Locked 20 minutes ago and never refreshed: the worker died.
    await t.ctx.db
      .updateTable("jobs")
      .set({ locked_at: sql<Date>`now() - interval '20 minutes'` })
      .where("id", "=", id)
      .execute();
    expect(await worker.runOnce()).toBe(true);
    expect(ran).toEqual([id]);
    const job = (await getJob(t.ctx.db, id))!;
    expect(job).toMatchObject({ status: "done", attempts: 2 });
    expect(job.lastError).toContain("dead-worker");
    // The dead worker coming back cannot complete a job it no longer holds.
    expect(await completeJob(t.ctx.db, claimed!, "dead-worker")).toBe(false);
  });

  it("fails a stale job that has used all its attempts", async () => {
    const kind = kindOf("stale-last");
    const id = await enqueue(t.ctx.db, kind, {}, { maxAttempts: 1 });
    await claimNext(t.ctx.db, "dead-worker", { kinds: [kind] });
    await t.ctx.db
      .updateTable("jobs")
      .set({ locked_at: sql<Date>`now() - interval '1 hour'` })
      .where("id", "=", id)
      .execute();
    const recovered = await recoverStaleJobs(t.ctx.db, 10 * 60_000);
    expect(recovered.failed).toBeGreaterThanOrEqual(1);
    expect(await getJob(t.ctx.db, id)).toMatchObject({ status: "failed", attempts: 1 });
  });
});

describe("the worker loop", () => {
  it("polls, runs jobs as they arrive and stops cleanly", async () => {
    const kind = kindOf("loop");
    const done: number[] = [];
    const worker = createWorker(t.ctx, { [kind]: async (p: { n: number }) => void done.push(p.n) }, { pollMs: 20, concurrency: 2 });
    worker.start();
    await enqueue(t.ctx.db, kind, { n: 1 });
    await enqueue(t.ctx.db, kind, { n: 2 });
    const until = Date.now() + 10_000;
    while (done.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await worker.stop();
    expect(done.sort()).toEqual([1, 2]);
    // Stopped: a new job stays queued.
    const id = await enqueue(t.ctx.db, kind, { n: 3 });
    await new Promise((r) => setTimeout(r, 100));
    expect((await getJob(t.ctx.db, id))?.status).toBe("queued");
  });

  it("reads WORKERS: inline by default", () => {
    expect(workersMode(readEnv({}))).toBe("inline");
    expect(workersMode(readEnv({ WORKERS: "inline" }))).toBe("inline");
    expect(workersMode(readEnv({ WORKERS: "external" }))).toBe("external");
  });
});
