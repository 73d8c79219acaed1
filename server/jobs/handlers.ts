// Every job kind the portal runs, for the in-process worker and scripts/worker.ts.
// A function, not a module-level registry: callers (and tests) pass the map they want.
import type { JobHandlers } from "./worker";
import { documentJobHandlers } from "../documents/jobs";

export function portalJobHandlers(): JobHandlers {
  return {
    ...documentJobHandlers(),
  };
}
