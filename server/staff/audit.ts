// The audit log (DESIGN §5): who did what to which record. Staff viewing the portal as a researcher
// ("view as") leave a row for every write they make there (issue 10 §8), besides the start and stop rows.
import type { AppContext } from "../context";
import type { Scope } from "../scope";

export async function audit(
  ctx: AppContext,
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
  scope: Pick<Scope, "app" | "impersonatorId" | "userId" | "ip">,
  action: string,
  target: { type: string; id: string } | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  if (scope.impersonatorId === null || scope.userId === null) return;
  await audit(scope.app, scope.impersonatorId, `impersonated.${action}`, target, { ...data, asUserId: scope.userId, ip: scope.ip });
}
