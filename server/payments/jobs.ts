// The payments area's jobs (listed for the worker in server/jobs/handlers.ts).
import * as z from "zod/mini";
import { defineJob } from "../jobs/define";
import type { AppContext } from "../context";
import { expireIdempotencyKeys } from "./idempotency";

const HOUR_MS = 3600_000;

/** Hourly: answers kept for idempotency keys expire after IDEMPOTENCY_KEEP_HOURS. One chain, like the file expiry. */
export const expireIdempotencyKeysJob = defineJob({
  kind: "expire-idempotency-keys",
  payload: z.object({}),
  maxAttempts: 3,
  handler: async (_payload, { ctx }) => {
    await expireIdempotencyKeys(ctx);
    await expireIdempotencyKeysJob.enqueue(ctx.db, {}, { runAt: new Date(Date.now() + HOUR_MS) });
  },
});

/** Starts the hourly chain unless a run is already waiting or running. */
export async function schedulePaymentHousekeeping(ctx: Pick<AppContext, "db">): Promise<void> {
  const pending = await ctx.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", expireIdempotencyKeysJob.kind)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  if (!pending) await expireIdempotencyKeysJob.enqueue(ctx.db, {});
}

export const paymentJobs = [expireIdempotencyKeysJob] as const;
