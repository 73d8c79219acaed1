// The document jobs (listed for the worker in server/job-handlers.ts).
import * as z from "zod/mini";
import { defineJob } from "../jobs/define";
import type { AppContext } from "../context";
import { analyseFile } from "./analysis";
import { expireAnonymousFiles } from "./expiry";
import { FILE_ID } from "./files";
import { sweepTempUploads } from "./partial-uploads";

/**
 * Reads the text of an uploaded main file: word count and language (ADR 006). Idempotent: the analysis
 * row is overwritten by each run. A file deleted in the meantime is skipped; database errors retry.
 */
export const analyseDocumentJob = defineJob({
  kind: "analyse-document",
  payload: z.object({ fileId: z.string().check(z.regex(FILE_ID)) }),
  maxAttempts: 3,
  handler: async ({ fileId }, { ctx }) => {
    await analyseFile(ctx, fileId);
  },
});

const HOUR_MS = 3600_000;

/**
 * Hourly: the files of abandoned anonymous drafts expire (issue 10 §6). Each run schedules the next one, so
 * one chain runs; scheduleFileExpiry starts it at boot when none is pending. Idempotent (deleted rows stay deleted).
 */
export const expireAnonymousFilesJob = defineJob({
  kind: "expire-anonymous-files",
  payload: z.object({}),
  maxAttempts: 3,
  handler: async (_payload, { ctx }) => {
    const removed = await expireAnonymousFiles(ctx);
    if (removed) ctx.logger.info({ removed }, "expired files of abandoned anonymous drafts");
    // Partial uploads of a killed web process (ADR 046), for portals whose web processes seldom restart.
    const partial = await sweepTempUploads(ctx);
    if (partial) ctx.logger.warn({ removed: partial }, "removed partial uploads of a stopped process");
    await expireAnonymousFilesJob.enqueue(ctx.db, {}, { runAt: new Date(Date.now() + HOUR_MS) });
  },
});

/** Starts the hourly expiry chain unless a run is already waiting or running. */
export async function scheduleFileExpiry(ctx: Pick<AppContext, "db">): Promise<void> {
  const pending = await ctx.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", expireAnonymousFilesJob.kind)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  if (!pending) await expireAnonymousFilesJob.enqueue(ctx.db, {});
}

export const documentJobs = [analyseDocumentJob, expireAnonymousFilesJob] as const;
