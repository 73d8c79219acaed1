// Every job kind the portal runs, for the in-process worker and scripts/worker.ts. Each area declares
// its jobs with defineJob (server/jobs/define.ts) and lists them here.
// A function, not a module-level registry: callers (and tests) pass the map they want.
// A composition root, so it lives in server/ itself: the jobs area loads none of the areas whose jobs it runs (ADR 059).
import { jobHandlers, type AnyJobDefinition, type JobHandlers } from "./jobs";
import { documentJobs } from "./documents/jobs";
import { orderJobs } from "./orders/life";
import { paymentJobs } from "./payments/jobs";
import { balanceJobs } from "./billing/ledger/jobs";
import { grammarCheckJobs } from "./grammar-check/job";
import { digitalJobs } from "./digital/jobs";

export const PORTAL_JOBS: readonly AnyJobDefinition[] = [
  ...documentJobs,
  ...orderJobs,
  ...paymentJobs,
  ...balanceJobs,
  ...grammarCheckJobs,
  ...digitalJobs,
];

export function portalJobHandlers(): JobHandlers {
  return jobHandlers(PORTAL_JOBS);
}
