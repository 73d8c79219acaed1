// Jobs declared with defineJob: typed enqueue, payload parsed before the handler runs, a payload that
// does not parse fails permanently on its first attempt (a real database: PGlite, or PostgreSQL in CI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import * as z from "zod/mini";
import { createTestContext, type TestContext } from "../helpers/context";
import { createWorker, defineJob, enqueue, getJob, jobHandlers } from "../../server/jobs";
import { portalJobHandlers, PORTAL_JOBS } from "../../server/job-handlers";
import { analyseDocumentJob } from "../../server/documents/jobs";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

/** A kind of its own per test, so tests (and the document jobs) never take each other's jobs. */
const kindOf = (name: string) => `test-${name}-${randomBytes(3).toString("hex")}`;

function greetingJob(seen: { name: string; times: number }[]) {
  return defineJob({
    kind: kindOf("greet"),
    payload: z.object({ name: z.string().check(z.minLength(1)), times: z.number().check(z.int(), z.positive()) }),
    maxAttempts: 4,
    handler: async (payload) => {
      seen.push(payload);
    },
  });
}

describe("defineJob", () => {
  it("runs a typed job with its parsed payload", async () => {
    const seen: { name: string; times: number }[] = [];
    const job = greetingJob(seen);
    const worker = createWorker(t.ctx, jobHandlers([job]), { maintenanceEveryMs: 0 });
    const id = await t.ctx.db.transaction().execute((trx) => job.enqueue(trx, { name: "Ada", times: 2 }));
    // The definition's maxAttempts is the default of its jobs.
    expect(await getJob(t.ctx.db, id)).toMatchObject({
      kind: job.kind,
      status: "queued",
      maxAttempts: 4,
      payload: { name: "Ada", times: 2 },
    });

    expect(await worker.runOnce()).toBe(true);
    expect(seen).toEqual([{ name: "Ada", times: 2 }]);
    expect(await getJob(t.ctx.db, id)).toMatchObject({ status: "done", attempts: 1, lastError: null });
  });

  it("fails a job whose stored payload does not parse permanently, after one attempt, with the reason", async () => {
    const seen: { name: string; times: number }[] = [];
    const job = greetingJob(seen);
    const worker = createWorker(t.ctx, jobHandlers([job]), { maintenanceEveryMs: 0 });
    // A row written without the definition (an older release, by hand): the untyped queue accepts it.
    const id = await enqueue(t.ctx.db, job.kind, { name: "", times: "twice" }, { maxAttempts: 5 });

    expect(await worker.runOnce()).toBe(true);
    const failed = (await getJob(t.ctx.db, id))!;
    expect(failed).toMatchObject({ status: "failed", attempts: 1, maxAttempts: 5 });
    expect(failed.lastError).toMatch(/^PermanentJobError: invalid payload for test-greet-[0-9a-f]{6}: /);
    expect(failed.lastError).toContain("name:");
    expect(failed.lastError).toContain("times:");
    expect(seen).toEqual([]);
    // Failed, not queued again: nothing left to run.
    expect(await worker.runOnce()).toBe(false);
    const row = await t.ctx.db.selectFrom("jobs").select(["finished_at", "locked_by"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.finished_at).not.toBeNull();
    expect(row.locked_by).toBeNull();
  });

  it("refuses to enqueue a payload that does not parse, failing the caller's transaction", async () => {
    const job = greetingJob([]);
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        // @ts-expect-error -- times must be a number: enqueue is typed by the definition
        await job.enqueue(trx, { name: "Ada", times: "2" });
      }),
    ).rejects.toThrow(`invalid payload for job ${job.kind}: times:`);
    const rows = await t.ctx.db.selectFrom("jobs").select("id").where("kind", "=", job.kind).execute();
    expect(rows).toHaveLength(0);
  });

  it("refuses two definitions of one kind in a handler map", () => {
    const a = greetingJob([]);
    const b = defineJob({ kind: a.kind, payload: z.object({}), handler: async () => undefined });
    expect(() => jobHandlers([a, b])).toThrow(`job kind ${a.kind} is defined twice`);
  });
});

describe("the portal's jobs", () => {
  it("are all declared with defineJob, one handler per kind", () => {
    expect(Object.keys(portalJobHandlers()).sort()).toEqual(PORTAL_JOBS.map((j) => j.kind).sort());
    expect(PORTAL_JOBS.map((j) => j.kind)).toContain("analyse-document");
  });

  it("document analysis: a payload without a file id fails permanently instead of being retried", async () => {
    const worker = createWorker(t.ctx, jobHandlers([analyseDocumentJob]), { maintenanceEveryMs: 0 });
    await expect(analyseDocumentJob.enqueue(t.ctx.db, { fileId: "not-a-uuid" })).rejects.toThrow(
      "invalid payload for job analyse-document",
    );
    const bad = await enqueue(t.ctx.db, analyseDocumentJob.kind, { fileId: 42 }, { maxAttempts: 3 });
    // A well-formed id of a file that does not exist (deleted meanwhile) is done: nothing to analyse.
    const gone = await analyseDocumentJob.enqueue(t.ctx.db, { fileId: randomUUID() });
    // Drain every due analysis job (documents.test.ts has its own database; here only these two exist).
    while (await worker.runOnce());
    expect(await getJob(t.ctx.db, bad)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await getJob(t.ctx.db, bad))!.lastError).toMatch(/^PermanentJobError: invalid payload for analyse-document: fileId: /);
    expect(await getJob(t.ctx.db, gone)).toMatchObject({ status: "done", attempts: 1, maxAttempts: 3 });
  });
});
