// The grammar check's assessments (spec 3 §2–§7, issue 23): who may use it, the owner's list and one report,
// the upload (one .doc/.docx through the portal's upload pipeline, the captcha for visitors, the job enqueued with
// the row), archive, delete of a failed row, and the claim of a visitor's assessments at sign-in.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { ASSESSMENT_EXTENSIONS, ASSESSMENT_MAX_FILES, ASSESSMENT_PAGE_SIZE, ASSESSMENT_TERMS_FIELD } from "#common/grammar-check/constants";
import { fail, ok, type Result } from "#common/result";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import type { MultipartBody } from "../kernel/multipart";
import { rateLimit } from "../kernel/rate-limit";
import { getUserView } from "../accounts/account";
import { checkUploadRateLimit, deleteFile, parseUploadRequest, UploadError, type StoredFile } from "../documents/storage";
import { hashDraftKey, newDraftKey } from "../order-form";
import { verifyCaptcha, newCaptchaChallenge, type CaptchaChallenge } from "./captcha";
import { curveInUse } from "./curve";
import { assessDocumentJob } from "./job";
import { findOwned, isIdentity, issuesOf, ownedQuery, ownerOfScope, toView } from "./store";
import type { AssessmentDetails, AssessmentSearch, AssessmentView } from "./types";

export type GrammarCheckAccess =
  { allowed: true; anonymous: boolean; captcha: boolean; uploadFilesUi: boolean } | { allowed: false; redirect: "researcher" | "login" };

/**
 * Who may use the grammar check (spec 3 §2, §6): a researcher whose languageAssessmentEnabled flag is on (off →
 * /researcher); a visitor only while allowsAnonymousLanguageAssessment is on (else the sign-in page), with the
 * captcha when its flag is on.
 */
export async function grammarCheckAccess(scope: Scope): Promise<GrammarCheckAccess> {
  const snapshot = await scope.app.config.snapshot();
  const uploadFilesUi = Boolean(snapshot.flags.upload_files_ui);
  if (scope.userId !== null) {
    const user = await scope.memo(`grammar-check:user:${scope.userId}`, () => getUserView(scope.app, scope.userId!));
    if (!user?.languageAssessmentEnabled) return { allowed: false, redirect: "researcher" };
    return { allowed: true, anonymous: false, captcha: false, uploadFilesUi };
  }
  if (!snapshot.config.allowsAnonymousLanguageAssessment) return { allowed: false, redirect: "login" };
  return { allowed: true, anonymous: true, captcha: Boolean(snapshot.flags.captcha), uploadFilesUi };
}

/** The refusal of a call the scope may not make: a visitor must sign in (401), a researcher without the flag 403. */
async function refusal(scope: Scope): Promise<Result<never> | null> {
  const access = await grammarCheckAccess(scope);
  if (access.allowed) return null;
  return access.redirect === "login" ? fail("sign-in-required") : fail("forbidden");
}

/** A fresh captcha challenge for the upload form (its loader) and GET /api/grammar-check/captcha. */
export function captchaChallenge(scope: Scope): Promise<CaptchaChallenge> {
  return newCaptchaChallenge(scope.app);
}

/**
 * The owner's assessments, newest first, not archived: one page of ASSESSMENT_PAGE_SIZE, or (polling, spec 3 §4)
 * just the listed identities (unknown or other owners' ones are left out). With the curve in use and its set.
 */
export async function searchAssessments(scope: Scope, query: { page?: number; identities?: string[] }): Promise<Result<AssessmentSearch>> {
  const refused = await refusal(scope);
  if (refused) return refused;
  const { curve, reference } = await curveInUse(scope.app);
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const base = ownedQuery(scope.app.db, ownerOfScope(scope));
  const empty = { results: [], pagination: { page, pageSize: ASSESSMENT_PAGE_SIZE, total: 0, pages: 0 }, percentiles: curve, reference };
  if (!base) return ok(empty);
  const live = base.where("archived_at", "is", null);
  if (query.identities) {
    const ids = [...new Set(query.identities.filter(isIdentity))].slice(0, ASSESSMENT_PAGE_SIZE);
    if (!ids.length) return ok({ ...empty, pagination: { ...empty.pagination, page: 1 } });
    const rows = await live.where("id", "in", ids).orderBy("created_at", "desc").orderBy("id", "desc").execute();
    return ok({
      results: rows.map(toView),
      pagination: { page: 1, pageSize: ASSESSMENT_PAGE_SIZE, total: rows.length, pages: rows.length ? 1 : 0 },
      percentiles: curve,
      reference,
    });
  }
  const [rows, count] = await Promise.all([
    live
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(ASSESSMENT_PAGE_SIZE)
      .offset((page - 1) * ASSESSMENT_PAGE_SIZE)
      .execute(),
    live
      .clearSelect()
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return ok({
    results: rows.map(toView),
    pagination: { page, pageSize: ASSESSMENT_PAGE_SIZE, total, pages: Math.ceil(total / ASSESSMENT_PAGE_SIZE) },
    percentiles: curve,
    reference,
  });
}

/** One report: another owner's, an unknown or an archived identity is not found. */
export async function getAssessment(scope: Scope, identity: string): Promise<Result<AssessmentDetails>> {
  const refused = await refusal(scope);
  if (refused) return refused;
  const row = await findOwned(scope.app.db, ownerOfScope(scope), identity);
  if (!row) return fail("not-found");
  const { curve, reference } = await curveInUse(scope.app);
  const view = toView(row);
  return ok({
    ...view,
    words: row.words,
    dialect: row.dialect,
    issues: view.complete ? issuesOf(row) : [],
    percentiles: curve,
    reference,
  });
}

/** Uploads an anonymous address and an anonymous browser may start per hour (README "Rate limits"). */
async function anonymousLimits(scope: Scope, draftKey: string | null): Promise<Result<never> | null> {
  const limits = (await scope.app.config.snapshot()).config.rateLimits;
  const byAddress = await rateLimit(scope.app.cache, `grammar-check:ip:${scope.ip}`, limits.grammarChecksPerAddressPerHour, 3600);
  if (!byAddress.allowed) return fail("too-many-requests", { retryAfterSeconds: byAddress.retryAfterSeconds });
  if (draftKey) {
    const key = `grammar-check:browser:${hashDraftKey(draftKey)}`;
    const byBrowser = await rateLimit(scope.app.cache, key, limits.grammarChecksPerBrowserPerHour, 3600);
    if (!byBrowser.allowed) return fail("too-many-requests", { retryAfterSeconds: byBrowser.retryAfterSeconds });
  }
  return null;
}

/** An upload refusal as the API says it (spec 3 §7): `{ error, jsonEncodedParams }`, the params a JSON string. */
function uploadRefusal(code: string, params: Record<string, string> = {}): Result<never> {
  return fail(code, { jsonEncodedParams: JSON.stringify(params) });
}

export interface CreatedAssessments {
  languageAssessments: AssessmentView[];
  /**
   * A visitor who came without a draft cookie gets one here: the caller (page action, API adapter) sets it as the
   * `draft` cookie, or the new assessment would be unreachable from the next request. Null otherwise.
   */
  newDraftKey: string | null;
}

/**
 * Starts an assessment of exactly one .doc/.docx (spec 3 §5): rate limits first (before the body is read), then the
 * body through the upload pipeline (content check, size and decompression limits, quotas), the captcha for visitors
 * when its flag is on, then the row (processing/processing) and its job in one transaction. Refusals carry
 * `jsonEncodedParams` (`{"fileName":"x.pdf"}`); nothing is kept from a refused request.
 */
export async function createAssessment(
  scope: Scope,
  body: MultipartBody,
  /** The page's upload_files_ui variant asks for its terms box (spec 3 §5); the API's body has none (spec 3 §7). */
  options: { requireTerms?: boolean } = {},
): Promise<Result<CreatedAssessments>> {
  const access = await grammarCheckAccess(scope);
  if (!access.allowed) return access.redirect === "login" ? fail("sign-in-required") : fail("forbidden");
  const upload = await checkUploadRateLimit(scope.app, { userId: scope.userId, ip: scope.ip });
  if (!upload.allowed) return fail("too-many-requests", { retryAfterSeconds: upload.retryAfterSeconds });
  if (access.anonymous) {
    const limited = await anonymousLimits(scope, scope.draftKey);
    if (limited) return limited;
  }
  const created = scope.userId === null && !scope.draftKey ? newDraftKey() : null;
  const owner = scope.userId !== null ? { ownerUserId: scope.userId } : { draftKey: created ?? scope.draftKey };

  let files: StoredFile[];
  let fields: Record<string, string>;
  let rejected: { name: string; code: string }[];
  try {
    ({ files, fields, rejected } = await parseUploadRequest(scope.app, body, {
      ...owner,
      uploaderIp: scope.ip,
      fixedKind: "assessment",
      extensions: ASSESSMENT_EXTENSIONS,
      limits: { maxFiles: ASSESSMENT_MAX_FILES },
    }));
  } catch (error) {
    if (error instanceof UploadError) return uploadRefusal(error.code, error.fileName ? { fileName: error.fileName } : {});
    throw error;
  }
  const discard = async () => {
    for (const file of files) await deleteFile(scope.app, file.id, owner);
  };
  if (files.length + rejected.length > ASSESSMENT_MAX_FILES) {
    await discard();
    return uploadRefusal("too-many-files");
  }
  if (rejected.length) {
    await discard();
    return uploadRefusal(rejected[0].code, rejected[0].name ? { fileName: rejected[0].name } : {});
  }
  if (!files.length) return uploadRefusal("file-required");
  if (options.requireTerms && fields[ASSESSMENT_TERMS_FIELD] !== "true") {
    await discard();
    return uploadRefusal("terms-required");
  }
  const file = files[0];
  if (access.captcha) {
    const outcome = await verifyCaptcha(scope.app, fields);
    if (outcome !== "ok") {
      await discard();
      return uploadRefusal(outcome);
    }
  }
  const id = randomUUID();
  const row = await scope.app.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("language_assessments")
      .values({
        id,
        user_id: scope.userId,
        draft_key_hash: scope.userId === null ? hashDraftKey(owner.draftKey!) : null,
        file_id: file.id,
        name: file.originalName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await assessDocumentJob.enqueue(trx, { assessmentId: id });
    return inserted;
  });
  return ok({ languageAssessments: [toView(row)], newDraftKey: created });
}

/** Archives one of a researcher's assessments (spec 3 §2: logged-in users only). Its name for '{fileName} archived'. */
export async function archiveAssessment(scope: Scope, identity: string): Promise<Result<{ fileName: string }>> {
  const refused = await refusal(scope);
  if (refused) return refused;
  if (scope.userId === null) return fail("sign-in-required");
  const row = await findOwned(scope.app.db, ownerOfScope(scope), identity);
  if (!row) return fail("not-found");
  await scope.app.db
    .updateTable("language_assessments")
    .set({ archived_at: sql<Date>`now()` })
    .where("id", "=", row.id)
    .where("archived_at", "is", null)
    .execute();
  return ok({ fileName: row.name });
}

/** Deletes a failed assessment and its file (spec 3 §2, §8: 'could not complete' rows offer delete); visitors too. */
export async function deleteAssessment(scope: Scope, identity: string): Promise<Result<{ fileName: string }>> {
  const refused = await refusal(scope);
  if (refused) return refused;
  const row = await findOwned(scope.app.db, ownerOfScope(scope), identity);
  if (!row) return fail("not-found");
  if (row.score_status !== "failed" && row.error_count_status !== "failed") return fail("assessment-not-failed");
  const deleted = await scope.app.db
    .deleteFrom("language_assessments")
    .where("id", "=", row.id)
    .where((eb) => eb.or([eb("score_status", "=", "failed"), eb("error_count_status", "=", "failed")]))
    .returning("file_id")
    .executeTakeFirst();
  if (!deleted) return fail("not-found");
  const fileOwner = scope.userId !== null ? { ownerUserId: scope.userId } : { draftKey: scope.draftKey };
  await deleteFile(scope.app, deleted.file_id, fileOwner);
  return ok({ fileName: row.name });
}

/**
 * A visitor's assessments (their draft cookie) become the user's at sign-in or registration (called where order
 * drafts and uploads are claimed: server/auth/sign-in.ts). The files are claimed there by claimDraftFiles.
 */
export async function claimAssessments(ctx: Pick<AppContext, "db">, draftKey: string, userId: number): Promise<number> {
  if (!draftKey) return 0;
  const result = await ctx.db
    .updateTable("language_assessments")
    .set({ user_id: userId, draft_key_hash: null })
    .where("user_id", "is", null)
    .where("draft_key_hash", "=", hashDraftKey(draftKey))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
