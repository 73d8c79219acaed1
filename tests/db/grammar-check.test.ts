// The grammar check's domain on a real database (issue 23, ADR 070): ownership of create/search/get/archive/delete,
// a visitor's assessments bound to the browser and claimed at sign-in, the job with the real engine on a .docx
// with planted errors (completed, skipped count for a short text, failed, idempotent rerun), the curve switch, and
// 'Get Started' attaching the manuscript to the order form once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, scopeFor } from "../helpers/factories";
import { makeDocx, makePdf } from "../helpers/fixtures";
import { systemScope, type Scope } from "../../server/scope";
import { multipartBody } from "../../server/http/multipart";
import { createWorker } from "../../server/jobs";
import { portalJobHandlers } from "../../server/job-handlers";
import { claimAnonymousWork } from "../../server/auth/sign-in";
import { listFiles } from "../../server/documents/storage";
import { documentDetails } from "../../server/documents/analysis";
import { EngineFailure, HOST_LIMITS } from "../../server/grammar-check/engine";
import {
  archiveAssessment,
  assessDocument,
  createAssessment,
  curveInUse,
  deleteAssessment,
  forgetCurve,
  getAssessment,
  grammarCheckAccess,
  searchAssessments,
  startOrderFromAssessment,
  stopEngine,
} from "../../server/grammar-check";

let t: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-grammar-"));
  t = await createTestContext({ DATA_DIR: dataDir });
});
afterAll(async () => {
  stopEngine();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// About 170 words of academic prose with planted errors: two misspellings (recieved, experiement), a doubled word
// (the the), a space before a comma, and "there" for "their".
const PLANTED =
  "The samples were recieved from three laboratories in the northern region between 2019 and 2021. " +
  "Each sample was stored at minus eighty degrees until the the analysis began , and no sample was thawed more than once. " +
  "The researchers measured the concentration of the protein in every sample using a standard assay. " +
  "They reported there results to the coordinating centre within two weeks of each measurement. " +
  "The experiement was repeated twice to confirm that the observed differences were not caused by handling. " +
  "Statistical analysis was performed with a mixed model that accounted for the laboratory as a random effect. " +
  "The results show that the concentration increased steadily with the age of the participants. " +
  "This finding agrees with earlier reports from independent cohorts in other countries. " +
  "Further work is needed to understand the biological mechanism behind the increase and its consequences for health. " +
  "We thank the participants and the staff of the three laboratories for their help with the collection of the samples.";

function visitor(draftKey: string | null): Scope {
  return systemScope(t.ctx, { lang: "en", localization: "US", draftKey, ip: "198.51.100.7" });
}

function upload(files: { name: string; bytes: Uint8Array<ArrayBuffer> }[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append("file", new File([f.bytes], f.name));
  return multipartBody(new Request("http://portal.test/api/grammar-check/create", { method: "POST", body: form }));
}

async function create(scope: Scope, name = "manuscript.docx", text = PLANTED) {
  const r = await createAssessment(scope, upload([{ name, bytes: new Uint8Array(await makeDocx(text)) }]));
  if (!r.ok) throw new Error(`create: ${r.error}`);
  return r.value.languageAssessments[0];
}

async function runJobs() {
  const worker = createWorker(t.ctx, portalJobHandlers(), { maintenanceEveryMs: 0 });
  let n = 0;
  while (await worker.runOnce()) n++;
  return n;
}

describe("create, search and get", () => {
  it("stores one .docx as an assessment file, a processing row and its job", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const view = await create(scope);
    expect(view).toMatchObject({
      name: "manuscript.docx",
      scoreStatus: "processing",
      errorCountStatus: "processing",
      processing: true,
      complete: false,
    });
    const file = await t.ctx.db.selectFrom("files").selectAll().where("id", "=", view.fileIdentity).executeTakeFirstOrThrow();
    expect(file.kind).toBe("assessment");
    expect(file.owner_user_id).toBe(user.id);
    const jobs = await t.ctx.db.selectFrom("jobs").select(["kind", "payload"]).where("kind", "=", "assess-document").execute();
    expect(jobs.some((j) => (j.payload as { assessmentId: string }).assessmentId === view.identity)).toBe(true);
    // Not an order's main file: no document analysis job for it.
    expect(
      await t.ctx.db.selectFrom("document_analyses").select("file_id").where("file_id", "=", file.id).executeTakeFirst(),
    ).toBeUndefined();

    const search = await searchAssessments(scope, {});
    expect(search.ok && search.value.results.map((r) => r.identity)).toEqual([view.identity]);
    expect(search.ok && search.value.pagination).toEqual({ page: 1, pageSize: 30, total: 1, pages: 1 });
    expect(search.ok && search.value.reference.source).toBe("brown-learned");

    const other = scopeFor(t.ctx, await createResearcher(t.ctx));
    expect(await getAssessment(other, view.identity)).toMatchObject({ ok: false, error: "not-found" });
    const otherSearch = await searchAssessments(other, { identities: [view.identity] });
    expect(otherSearch.ok && otherSearch.value.results).toEqual([]);
    expect(await getAssessment(scope, "not-a-uuid")).toMatchObject({ ok: false, error: "not-found" });
    expect(await getAssessment(scope, "00000000-0000-4000-8000-000000000000")).toMatchObject({ ok: false, error: "not-found" });
    expect(await getAssessment(scope, view.identity)).toMatchObject({ ok: true, value: { identity: view.identity, issues: [] } });
  });

  it("refuses another type, two files and no file with { error, jsonEncodedParams } and keeps nothing", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const pdf = await createAssessment(scope, upload([{ name: "figure.pdf", bytes: new Uint8Array(await makePdf("Some text.")) }]));
    expect(pdf).toMatchObject({
      ok: false,
      error: "file-type-not-allowed",
      details: { jsonEncodedParams: JSON.stringify({ fileName: "figure.pdf" }) },
    });
    const docx = new Uint8Array(await makeDocx(PLANTED));
    const two = await createAssessment(
      scope,
      upload([
        { name: "a.docx", bytes: docx },
        { name: "b.docx", bytes: docx },
      ]),
    );
    expect(two).toMatchObject({ ok: false, error: "too-many-files" });
    const none = await createAssessment(scope, upload([], { note: "no file" }));
    expect(none).toMatchObject({ ok: false, error: "file-required" });
    const kept = await t.ctx.db
      .selectFrom("files")
      .select("id")
      .where("owner_user_id", "=", user.id)
      .where("deleted_at", "is", null)
      .execute();
    expect(kept).toEqual([]);
    expect(await t.ctx.db.selectFrom("language_assessments").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });
});

describe("access", () => {
  it("a researcher without languageAssessmentEnabled goes to /researcher; visitors follow the config", async () => {
    const user = await createResearcher(t.ctx);
    await t.ctx.db.updateTable("users").set({ language_assessment_enabled: false }).where("id", "=", user.id).execute();
    const scope = scopeFor(t.ctx, user);
    expect(await grammarCheckAccess(scope)).toEqual({ allowed: false, redirect: "researcher" });
    expect(await createAssessment(scope, upload([]))).toMatchObject({ ok: false, error: "forbidden" });
    expect(await grammarCheckAccess(visitor("k-access"))).toMatchObject({ allowed: true, anonymous: true, captcha: false });
    await t.ctx.config.setFlag("captcha", true);
    expect(await grammarCheckAccess(visitor("k-access"))).toMatchObject({ allowed: true, captcha: true });
    await t.ctx.config.setFlag("captcha", false);
    await t.ctx.config.setConfig("allowsAnonymousLanguageAssessment", false);
    try {
      expect(await grammarCheckAccess(visitor("k-access"))).toEqual({ allowed: false, redirect: "login" });
      expect(await searchAssessments(visitor("k-access"), {})).toMatchObject({ ok: false, error: "sign-in-required" });
    } finally {
      await t.ctx.config.setConfig("allowsAnonymousLanguageAssessment", true);
    }
  });

  it("with the captcha flag a visitor's upload needs the captcha, and the file is not kept without it", async () => {
    await t.ctx.config.setFlag("captcha", true);
    try {
      const scope = visitor("k-captcha");
      const r = await createAssessment(scope, upload([{ name: "m.docx", bytes: new Uint8Array(await makeDocx(PLANTED)) }]));
      expect(r).toMatchObject({ ok: false, error: "captcha-required" });
      const wrong = await createAssessment(
        scope,
        upload([{ name: "m.docx", bytes: new Uint8Array(await makeDocx(PLANTED)) }], { captchaToken: "1.2.3", captchaAnswer: "4" }),
      );
      expect(wrong).toMatchObject({ ok: false, error: "captcha-invalid" });
      const kept = await t.ctx.db
        .selectFrom("files")
        .select("id")
        .where("draft_key", "=", "k-captcha")
        .where("deleted_at", "is", null)
        .execute();
      expect(kept).toEqual([]);
    } finally {
      await t.ctx.config.setFlag("captcha", false);
    }
  });
});

describe("visitors", () => {
  it("bind assessments to the browser; another browser sees nothing; sign-in claims them", async () => {
    const mine = visitor("browser-one");
    const view = await create(mine);
    const row = await t.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", view.identity).executeTakeFirstOrThrow();
    expect(row.user_id).toBeNull();
    expect(row.draft_key_hash).not.toBe("browser-one");
    expect(await getAssessment(visitor("browser-two"), view.identity)).toMatchObject({ ok: false, error: "not-found" });
    expect(await getAssessment(visitor(null), view.identity)).toMatchObject({ ok: false, error: "not-found" });
    // Visitors cannot archive (spec 3 §2).
    expect(await archiveAssessment(mine, view.identity)).toMatchObject({ ok: false, error: "sign-in-required" });

    const user = await createResearcher(t.ctx);
    await claimAnonymousWork(mine, user.id);
    const userScope = scopeFor(t.ctx, user);
    expect(await getAssessment(userScope, view.identity)).toMatchObject({ ok: true });
    expect(await getAssessment(mine, view.identity)).toMatchObject({ ok: false, error: "not-found" });
    const file = await t.ctx.db.selectFrom("files").selectAll().where("id", "=", view.fileIdentity).executeTakeFirstOrThrow();
    expect(file.owner_user_id).toBe(user.id);
  });

  it("a visitor without a draft cookie is given a key that then owns the assessment", async () => {
    const r = await createAssessment(visitor(null), upload([{ name: "m.docx", bytes: new Uint8Array(await makeDocx(PLANTED)) }]));
    if (!r.ok) throw new Error(r.error);
    expect(r.value.newDraftKey).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const identity = r.value.languageAssessments[0].identity;
    expect(await getAssessment(visitor(r.value.newDraftKey), identity)).toMatchObject({ ok: true });
  });
});

describe("rate limits", () => {
  it("refuse a visitor's upload past the per-browser limit before the body is read", async () => {
    const snapshot = await t.ctx.config.snapshot();
    const limits = snapshot.config.rateLimits;
    await t.ctx.config.setConfig("rateLimits", { ...limits, grammarChecksPerBrowserPerHour: 1 });
    try {
      const scope = visitor("k-limited");
      await create(scope);
      let read = false;
      const body = {
        isMultipart: true,
        read: async () => {
          read = true;
        },
      };
      const r = await createAssessment(scope, body);
      expect(r).toMatchObject({ ok: false, error: "too-many-requests", details: { retryAfterSeconds: expect.any(Number) } });
      expect(read).toBe(false);
      // Another browser from the same address is still below the address's own limit.
      await create(visitor("k-limited-2"));
    } finally {
      await t.ctx.config.setConfig("rateLimits", limits);
    }
  });
});

describe("the job", () => {
  it("scores a .docx with planted errors with the real engine, shows them in context, and a rerun changes nothing", async () => {
    const scope = scopeFor(t.ctx, await createResearcher(t.ctx));
    const view = await create(scope);
    expect(await assessDocument(t.ctx, view.identity)).toBe("completed");
    const r = await getAssessment(scope, view.identity);
    if (!r.ok) throw new Error(r.error);
    expect(r.value).toMatchObject({ scoreStatus: "completed", errorCountStatus: "completed", complete: true, dialect: expect.any(String) });
    expect(r.value.words).toBeGreaterThan(150);
    expect(r.value.score).toBeGreaterThanOrEqual(0);
    expect(r.value.score).toBeLessThanOrEqual(10);
    expect(r.value.percentile).toBeGreaterThanOrEqual(0);
    expect(r.value.errorCount!.consistencySpellingTypos).toBeGreaterThanOrEqual(2);
    const flagged = r.value.issues.map((i) => i.sentence.slice(i.start, i.end));
    expect(flagged).toEqual(expect.arrayContaining(["recieved", "experiement"]));
    const before = await t.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", view.identity).executeTakeFirstOrThrow();
    expect(await assessDocument(t.ctx, view.identity)).toBe("skipped");
    const after = await t.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", view.identity).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  }, 120_000);

  it("skips the count of a short text, fails a file that is gone, and runs through the worker's job", async () => {
    const scope = scopeFor(t.ctx, await createResearcher(t.ctx));
    const short = await create(scope, "short.docx", "The samples were recieved from three laboratories.");
    const gone = await create(scope, "gone.docx");
    await t.ctx.db.updateTable("files").set({ deleted_at: new Date() }).where("id", "=", gone.fileIdentity).execute();
    expect(await runJobs()).toBeGreaterThanOrEqual(2);
    const shortView = await getAssessment(scope, short.identity);
    expect(shortView).toMatchObject({ ok: true, value: { scoreStatus: "completed", errorCountStatus: "skipped", complete: true } });
    const goneRow = await t.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", gone.identity).executeTakeFirstOrThrow();
    expect(goneRow).toMatchObject({ score_status: "failed", error_count_status: "failed" });
    expect(goneRow.failure_reason).toMatch(/^file-missing/);
    const search = await searchAssessments(scope, { identities: [short.identity, gone.identity] });
    expect(search.ok && search.value.results.find((v) => v.identity === gone.identity)).toMatchObject({ failed: true, complete: false });
  }, 120_000);

  it("a crash or timeout of the engine keeps the row processing while attempts remain, and fails it on the last", async () => {
    const scope = scopeFor(t.ctx, await createResearcher(t.ctx));
    const view = await create(scope, "timeout.docx");
    const limits = { ...HOST_LIMITS };
    HOST_LIMITS.callTimeoutMs = 1;
    HOST_LIMITS.msPer1000Chars = 0;
    try {
      await expect(assessDocument(t.ctx, view.identity, { retryEngineFailure: true })).rejects.toBeInstanceOf(EngineFailure);
      const row = await t.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", view.identity).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ score_status: "processing", error_count_status: "processing", failure_reason: null });
      expect(await assessDocument(t.ctx, view.identity, { retryEngineFailure: false })).toBe("failed");
    } finally {
      Object.assign(HOST_LIMITS, limits);
    }
    const row = await t.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", view.identity).executeTakeFirstOrThrow();
    expect(row.score_status).toBe("failed");
    expect(row.failure_reason).toMatch(/^engine-failure: .*took longer/);
  }, 120_000);
});

describe("archive and delete", () => {
  it("archive hides the owner's assessment; delete takes failed ones only, with the file", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const other = scopeFor(t.ctx, await createResearcher(t.ctx));
    const a = await create(scope, "a.docx");
    const b = await create(scope, "b.docx");
    expect(await archiveAssessment(other, a.identity)).toMatchObject({ ok: false, error: "not-found" });
    expect(await archiveAssessment(scope, a.identity)).toEqual({ ok: true, value: { fileName: "a.docx" } });
    expect(await getAssessment(scope, a.identity)).toMatchObject({ ok: false, error: "not-found" });
    expect(await archiveAssessment(scope, a.identity)).toMatchObject({ ok: false, error: "not-found" });
    const list = await searchAssessments(scope, {});
    expect(list.ok && list.value.results.map((r) => r.identity)).toEqual([b.identity]);

    expect(await deleteAssessment(scope, b.identity)).toMatchObject({ ok: false, error: "assessment-not-failed" });
    await t.ctx.db
      .updateTable("language_assessments")
      .set({ score_status: "failed", error_count_status: "failed" })
      .where("id", "=", b.identity)
      .execute();
    expect(await deleteAssessment(other, b.identity)).toMatchObject({ ok: false, error: "not-found" });
    expect(await deleteAssessment(scope, b.identity)).toEqual({ ok: true, value: { fileName: "b.docx" } });
    expect(await t.ctx.db.selectFrom("language_assessments").select("id").where("id", "=", b.identity).executeTakeFirst()).toBeUndefined();
    const file = await t.ctx.db.selectFrom("files").select("deleted_at").where("id", "=", b.fileIdentity).executeTakeFirstOrThrow();
    expect(file.deleted_at).not.toBeNull();
  });

  it("a visitor deletes their own failed assessment", async () => {
    const scope = visitor("k-delete");
    const v = await create(scope);
    await t.ctx.db
      .updateTable("language_assessments")
      .set({ score_status: "failed", error_count_status: "failed" })
      .where("id", "=", v.identity)
      .execute();
    expect(await deleteAssessment(visitor("k-other"), v.identity)).toMatchObject({ ok: false, error: "not-found" });
    expect(await deleteAssessment(scope, v.identity)).toMatchObject({ ok: true });
  });
});

describe("the curve in use", () => {
  it("is the Brown reference below the threshold and the portal's scores from it", async () => {
    forgetCurve(t.ctx);
    const completed = await t.ctx.db.selectFrom("language_assessments").select("id").where("score_status", "=", "completed").execute();
    expect(completed.length).toBeGreaterThanOrEqual(2);
    const below = await curveInUse(t.ctx, { minimum: completed.length + 1 });
    expect(below.reference.source).toBe("brown-learned");
    const at = await curveInUse(t.ctx, { minimum: completed.length });
    expect(at.reference).toEqual({ source: "portal", documents: completed.length });
    expect(at.curve.length).toBeGreaterThan(0);
  });
});

describe("Get Started (from-language-assessment)", () => {
  it("attaches a copy of the manuscript to the draft once, analysed for its word count", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const v = await create(scope);
    const first = await startOrderFromAssessment(scope, v.identity);
    const second = await startOrderFromAssessment(scope, v.identity);
    if (!first.ok || !second.ok) throw new Error("from-language-assessment failed");
    expect(second.value.orderFormId).toBe(first.value.orderFormId);
    const attached = await listFiles(t.ctx, { ownerUserId: user.id }, { orderFormId: first.value.orderFormId });
    expect(attached.map((f) => [f.kind, f.originalName])).toEqual([["main", "manuscript.docx"]]);
    expect(attached[0].id).not.toBe(v.fileIdentity);
    await runJobs();
    const details = await documentDetails(t.ctx, [attached[0].id]);
    expect(details.wordCount).toBeGreaterThan(150);
    const other = scopeFor(t.ctx, await createResearcher(t.ctx));
    expect(await startOrderFromAssessment(other, v.identity)).toMatchObject({ ok: false, error: "not-found" });
  }, 120_000);
});
