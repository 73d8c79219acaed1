// How much mail a request may make the portal send (issue 10 §4): one request sent 50 quote e-mails in
// 0.3 s. Every message a user's request causes counts per recipient address and per account; over either
// limit it is not sent. Mail the portal sends of its own accord (a job's notification) opts out with
// `unlimited`, since dropping it would lose information nobody asked for twice.
import type { AppContext } from "../context";
import { rateLimit } from "../kernel/rate-limit";

/** Messages per hour, configurable in `rateLimits`; a configured object that does not name them keeps these. */
export const MAIL_LIMIT_DEFAULTS = { mailPerRecipientPerHour: 10, mailPerUserPerHour: 20 } as const;

function configured(rateLimits: Record<string, unknown>, key: keyof typeof MAIL_LIMIT_DEFAULTS): number {
  const v = rateLimits[key];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : MAIL_LIMIT_DEFAULTS[key];
}

export type MailAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one message to `to` (for `userId`) and answers whether it may go. */
export async function takeMailAllowance(ctx: AppContext, message: { to: string; userId?: number | null }): Promise<MailAllowance> {
  const rateLimits = (await ctx.config.snapshot()).config.rateLimits as Record<string, unknown>;
  const checks = [
    rateLimit(ctx.cache, `mail:to:${message.to.trim().toLowerCase()}`, configured(rateLimits, "mailPerRecipientPerHour"), 3600),
  ];
  if (message.userId) checks.push(rateLimit(ctx.cache, `mail:user:${message.userId}`, configured(rateLimits, "mailPerUserPerHour"), 3600));
  const results = await Promise.all(checks);
  const refused = results.filter((r) => !r.allowed);
  if (!refused.length) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(...refused.map((r) => r.retryAfterSeconds)) };
}
