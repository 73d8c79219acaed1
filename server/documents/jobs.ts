// The document jobs (listed for the worker in server/jobs/handlers.ts).
import * as z from "zod/mini";
import { defineJob } from "../jobs/define";
import { analyseFile } from "./analysis";
import { FILE_ID } from "./files";

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

export const documentJobs = [analyseDocumentJob] as const;
