// The document jobs, for the worker's handler map (server/jobs/handlers.ts).
import type { JobHandlers } from "../jobs/worker";
import { analyseFile } from "./analysis";
import { ANALYSE_JOB, isFileId } from "./storage";

export function documentJobHandlers(): JobHandlers {
  return {
    [ANALYSE_JOB]: async (payload: { fileId?: unknown }, { ctx }) => {
      // A malformed payload is dropped (analyseFile ignores unknown ids); database errors throw and retry.
      if (!isFileId(payload?.fileId)) return;
      await analyseFile(ctx, payload.fileId);
    },
  };
}
