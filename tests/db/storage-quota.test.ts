// Storage quotas (issue 10 §6): a user, an anonymous draft (tighter), an order form and the whole portal each
// have a byte quota; an upload over any of them is refused (413 storage-quota-exceeded) and nothing is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createResearcher } from "../helpers/factories";
import { makeDocx } from "../helpers/fixtures";
import fs from "node:fs";
import { saveUpload, storedPath, UploadError, uploadLimits, type UploadLimits } from "../../server/documents/storage";
import { expireAnonymousFiles } from "../../server/documents/expiry";
import { expireAnonymousFilesJob, scheduleFileExpiry } from "../../server/documents/jobs";

let t: TestContext;
let docx: Buffer;
beforeAll(async () => {
  t = await createTestContext();
  docx = await makeDocx("Storage quotas keep one visitor from filling the disk. ".repeat(40));
});
afterAll(async () => t.close());

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "stored";
  } catch (error) {
    if (error instanceof UploadError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe("storage quotas", () => {
  it("are configurable, tighter for anonymous visitors than for users", async () => {
    const limits = await uploadLimits(t.ctx);
    expect(limits.quotaAnonymousBytes).toBeLessThan(limits.quotaUserBytes);
    expect(limits.quotaOrderFormBytes).toBeGreaterThan(0);
    expect(limits.quotaTotalBytes).toBeGreaterThan(limits.quotaUserBytes);
  });

  it("refuse the upload that would take an anonymous draft, a user or an order form over its quota", async () => {
    const size = docx.length;
    const upload = (owner: { ownerUserId?: number; draftKey?: string; orderFormId?: string }, limits: Partial<UploadLimits>) =>
      outcome(saveUpload(t.ctx, docx, { ...owner, kind: "main", originalName: "paper.docx", analyse: false, limits }));
    const anonymous = { draftKey: "quota-draft-key" };
    const tight = { quotaAnonymousBytes: 2 * size + 10 };
    expect(await upload(anonymous, tight)).toBe("stored");
    expect(await upload(anonymous, tight)).toBe("stored");
    expect(await upload(anonymous, tight)).toBe("413 storage-quota-exceeded");
    const kept = await t.ctx.db.selectFrom("files").select("id").where("draft_key", "=", "quota-draft-key").execute();
    expect(kept).toHaveLength(2);

    const user = await createResearcher(t.ctx);
    const perUser = { quotaUserBytes: size + 10 };
    const other0 = await createResearcher(t.ctx);
    expect(await upload({ ownerUserId: user.id }, perUser)).toBe("stored");
    expect(await upload({ ownerUserId: user.id }, perUser)).toBe("413 storage-quota-exceeded");

    // The order form of this user already holds its manuscript (the factory's upload).
    const form = await createOrderFormFor(t.ctx, other0);
    const held = await t.ctx.db.selectFrom("files").select("size_bytes").where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    const perForm = { quotaOrderFormBytes: Number(held.size_bytes) + size - 1 };
    expect(await upload({ ownerUserId: other0.id, orderFormId: form.id }, perForm)).toBe("413 storage-quota-exceeded");

    const total = (
      await t.ctx.db
        .selectFrom("files")
        .select((eb) => eb.fn.sum<string>("size_bytes").as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    const other = await createResearcher(t.ctx);
    expect(await upload({ ownerUserId: other.id }, { quotaTotalBytes: Number(total) + size - 1 })).toBe("413 storage-quota-exceeded");
  });

  it("refuse ten concurrent uploads past the quota, keeping only what fits", async () => {
    const size = docx.length;
    const limits = { quotaAnonymousBytes: 3 * size + 10 };
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        outcome(saveUpload(t.ctx, docx, { draftKey: "quota-race", kind: "main", originalName: "paper.docx", analyse: false, limits })),
      ),
    );
    expect(results.filter((r) => r === "stored")).toHaveLength(3);
    expect(results.filter((r) => r === "413 storage-quota-exceeded")).toHaveLength(7);
  });
});

describe("files of abandoned anonymous drafts", () => {
  it("expire after the draft was left alone; claimed, recent and signed-in files stay", async () => {
    const old = new Date(Date.now() - 30 * 24 * 3600_000);
    const store = (owner: { ownerUserId?: number; draftKey?: string }) =>
      saveUpload(t.ctx, docx, { ...owner, kind: "main", originalName: "paper.docx", analyse: false });
    const abandoned = await store({ draftKey: "expiry-old" });
    const recent = await store({ draftKey: "expiry-new" });
    const user = await createResearcher(t.ctx);
    const mine = await store({ ownerUserId: user.id });
    await t.ctx.db.updateTable("files").set({ created_at: old }).where("id", "in", [abandoned.id, mine.id]).execute();
    expect(fs.existsSync(storedPath(t.ctx, (await stored(abandoned.id)).stored_name))).toBe(true);

    expect(await expireAnonymousFiles(t.ctx)).toBe(1);
    const gone = await stored(abandoned.id);
    expect(gone.deleted_at).not.toBeNull();
    expect(fs.existsSync(storedPath(t.ctx, gone.stored_name))).toBe(false);
    expect((await stored(recent.id)).deleted_at).toBeNull();
    expect((await stored(mine.id)).deleted_at).toBeNull();
  });

  it("are removed by an hourly job that schedules its next run", async () => {
    await scheduleFileExpiry(t.ctx);
    await scheduleFileExpiry(t.ctx);
    const queued = () =>
      t.ctx.db.selectFrom("jobs").select(["run_at"]).where("kind", "=", "expire-anonymous-files").where("status", "=", "queued").execute();
    expect(await queued()).toHaveLength(1);
    await expireAnonymousFilesJob.handler({}, { ctx: t.ctx } as Parameters<typeof expireAnonymousFilesJob.handler>[1]);
    // The run left the next one an hour on (the first, run here by hand, is still queued).
    const next = await queued();
    expect(next).toHaveLength(2);
    expect(Math.max(...next.map((j) => new Date(j.run_at).getTime()))).toBeGreaterThan(Date.now() + 50 * 60_000);
  });
});

const stored = (id: string) =>
  t.ctx.db.selectFrom("files").select(["stored_name", "deleted_at"]).where("id", "=", id).executeTakeFirstOrThrow();
