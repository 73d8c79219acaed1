// The payments area's jobs (listed for the worker in server/job-handlers.ts).
import * as z from "zod/mini";
import { defineJob } from "../jobs/define";
import type { AppContext } from "../context";
import { expireIdempotencyKeys } from "./idempotency";
import { recoverPayments } from "./recover";

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

/** How often attempts nobody is finishing are looked at (ADR 051): with the 15 s lease, settled or failed within a minute. */
export const RECOVERY_EVERY_MS = 15_000;

/** Every RECOVERY_EVERY_MS: asks the providers about stuck attempts and settles or fails each once (recover.ts). */
export const recoverPaymentsJob = defineJob({
  kind: "recover-payments",
  payload: z.object({}),
  maxAttempts: 3,
  handler: async (_payload, { ctx }) => {
    // The chain goes on whatever this pass met (a provider down): the next pass asks again.
    await recoverPayments(ctx).catch((err: unknown) => ctx.logger.warn({ err }, "payment recovery pass failed"));
    await recoverPaymentsJob.enqueue(ctx.db, {}, { runAt: new Date(Date.now() + RECOVERY_EVERY_MS) });
  },
});

/** Starts each chain (the hourly key expiry, the payment recovery) unless a run is already waiting or running. */
export async function schedulePaymentHousekeeping(ctx: Pick<AppContext, "db">): Promise<void> {
  for (const job of [expireIdempotencyKeysJob, recoverPaymentsJob]) {
    const pending = await ctx.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", job.kind)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirst();
    if (!pending) await job.enqueue(ctx.db, {});
  }
}

export const paymentJobs = [expireIdempotencyKeysJob, recoverPaymentsJob] as const;
