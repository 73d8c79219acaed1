// The balances' job (issue 13, ADR 041): hourly, what is left on expired credits and prepayments is closed
// by expireBalances (one expire row each). One chain, like the payments' housekeeping (server/payments/jobs.ts).
import * as z from "zod/mini";
import { defineJob } from "../../jobs/define";
import type { AppContext } from "../../context";
import { expireBalances } from "./ledger";

const HOUR_MS = 3600_000;

export const expireBalancesJob = defineJob({
  kind: "expire-balances",
  payload: z.object({}),
  maxAttempts: 3,
  handler: async (_payload, { ctx }) => {
    // A batch is at most 500 accounts: while a full batch came back, run again at once.
    let n = await expireBalances(ctx.db);
    while (n >= 500) n = await expireBalances(ctx.db);
    await expireBalancesJob.enqueue(ctx.db, {}, { runAt: new Date(Date.now() + HOUR_MS) });
  },
});

/** Starts the hourly chain unless a run is already waiting or running. */
export async function scheduleBalanceExpiry(ctx: Pick<AppContext, "db">): Promise<void> {
  const pending = await ctx.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", expireBalancesJob.kind)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  if (!pending) await expireBalancesJob.enqueue(ctx.db, {});
}

export const balanceJobs = [expireBalancesJob] as const;
