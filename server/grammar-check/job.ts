// The grammar check's job (issue 23 item 1): runs in the worker, never on a web request. The stored manuscript's
// text through the portal's extraction (its heap and size caps), then the engine; the row moves from processing to
// completed (the count skipped for a text too short to count) or, on any failure, to failed with the reason kept.
import * as z from "zod/mini";
import { defineJob } from "../jobs/define";
import type { AppContext } from "../context";
import { extractText } from "../documents/analysis";
import { familyOfContentType } from "../documents/filetype";
import { withStoredFile } from "../documents/files";
import { assessText, EngineFailure, percentileOf } from "./engine";
import { curveInUse } from "./curve";

const REASON_MAX = 500;

/**
 * Assesses one uploaded manuscript. Idempotent: a row that is no longer processing (completed, failed, deleted) is
 * left alone, and the final write is guarded by the same condition, so a second attempt after a crash changes
 * nothing that one attempt already settled.
 */
export async function assessDocument(
  ctx: AppContext,
  assessmentId: string,
  /** Whether another attempt follows if this one throws: then a crash or timeout of the engine's child is retried. */
  options: { retryEngineFailure?: boolean } = {},
): Promise<"completed" | "failed" | "skipped"> {
  const row = await ctx.db
    .selectFrom("language_assessments as a")
    .innerJoin("files as f", "f.id", "a.file_id")
    .select(["a.id", "a.score_status", "a.error_count_status", "f.stored_name", "f.content_type", "f.deleted_at"])
    .where("a.id", "=", assessmentId)
    .executeTakeFirst();
  if (!row || row.score_status !== "processing") return "skipped";
  let outcome:
    | {
        ok: true;
        score: number;
        percentile: number;
        errorCount: Record<string, number>;
        issues: unknown[];
        words: number;
        dialect: "american" | "british";
        skipped: boolean;
      }
    | { ok: false; reason: string };
  try {
    if (row.deleted_at) throw Object.assign(new Error("the file was removed"), { code: "file-missing" });
    const family = familyOfContentType(row.content_type);
    if (family !== "doc" && family !== "docx")
      throw Object.assign(new Error(`not a Word document: ${row.content_type}`), { code: "unsupported-type" });
    const started = Date.now();
    const text = await withStoredFile(ctx, row.stored_name, (path) => extractText(path, family));
    const report = await assessText(text);
    const { curve } = await curveInUse(ctx);
    const percentile = Math.max(0, Math.min(100, Math.round(percentileOf(report.score, curve))));
    ctx.logger.info({ assessmentId, words: report.words, score: report.score, ms: Date.now() - started }, "grammar check done");
    outcome = {
      ok: true,
      score: report.score,
      percentile,
      errorCount: report.errorCount,
      issues: report.issues,
      words: report.words,
      dialect: report.dialect,
      skipped: report.countSkipped,
    };
  } catch (error) {
    // The child crashed or timed out (a restart may well succeed: it is a fresh process): the job is retried with
    // backoff while attempts remain, and the row stays processing. An unreadable file fails at once.
    if (error instanceof EngineFailure && options.retryEngineFailure) {
      ctx.logger.warn({ assessmentId, err: error }, "grammar engine failed; the job will retry");
      throw error;
    }
    const e = error as NodeJS.ErrnoException;
    const code =
      error instanceof EngineFailure
        ? "engine-failure"
        : e.code === "ENOENT"
          ? "file-missing"
          : typeof e.code === "string"
            ? e.code
            : "unreadable";
    ctx.logger.warn({ assessmentId, err: error }, "grammar check failed");
    outcome = { ok: false, reason: `${code}: ${String(e.message ?? e).slice(0, REASON_MAX)}` };
  }
  const update = ctx.db.updateTable("language_assessments").where("id", "=", assessmentId).where("score_status", "=", "processing");
  if (outcome.ok) {
    await update
      .set({
        score_status: "completed",
        error_count_status: outcome.skipped ? "skipped" : "completed",
        score_tenths: Math.max(0, Math.min(100, Math.round(outcome.score * 10))),
        percentile: outcome.percentile,
        error_count: JSON.stringify(outcome.errorCount),
        issues: JSON.stringify(outcome.issues),
        words: outcome.words,
        dialect: outcome.dialect,
        failure_reason: null,
        completed_at: new Date(),
      })
      .execute();
    return "completed";
  }
  await update
    .set({ score_status: "failed", error_count_status: "failed", failure_reason: outcome.reason, completed_at: new Date() })
    .execute();
  return "failed";
}

export const assessDocumentJob = defineJob({
  kind: "assess-document",
  payload: z.object({ assessmentId: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)) }),
  // A failure of the engine's child (crash, timeout) is retried while attempts remain; on the last attempt, and
  // for a file that cannot be read, the row records it as failed. The database going away is retried too.
  maxAttempts: 3,
  handler: async ({ assessmentId }, { ctx, job }) => {
    await assessDocument(ctx, assessmentId, { retryEngineFailure: job.attempts < job.maxAttempts });
  },
});

export const grammarCheckJobs = [assessDocumentJob] as const;
