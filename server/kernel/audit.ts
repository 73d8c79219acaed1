// The audit log (DESIGN §5): who did what to which record. Staff viewing the portal as a researcher
// ("view as") leave a row for every write they make there (issue 10 §8), besides the start and stop rows.
// On the lowest floor (ADR 059): accounts, auth, orders, support and staff all write it, and staff (which it was
// part of) loads auth and orders; so it takes only the handles it writes with, not the AppContext or the Scope.
import type { DB } from "../db";

export async function audit(
  ctx: { db: DB },
  actorUserId: number | null,
  action: string,
  target: { type: string; id: string } | null,
  data: Record<string, unknown> = {},
) {
  await ctx.db
    .insertInto("audit_log")
    .values({
      actor_user_id: actorUserId,
      action,
      target_type: target?.type ?? null,
      target_id: target?.id ?? null,
      data: JSON.stringify(data),
    })
    .execute();
}

/**
 * A write made in an impersonated session, recorded against the staff member (the actor) with the researcher
 * it was made for; nothing for a researcher's own session. `action` names the write (`order.place`…).
 */
export async function auditImpersonated(
  scope: { app: { db: DB }; impersonatorId: number | null; userId: number | null; ip: string },
  action: string,
  target: { type: string; id: string } | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  if (scope.impersonatorId === null || scope.userId === null) return;
  await audit(scope.app, scope.impersonatorId, `impersonated.${action}`, target, { ...data, asUserId: scope.userId, ip: scope.ip });
}
