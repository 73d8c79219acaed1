// Staff "view as": a new session for the researcher that carries the staff member as impersonator,
// a one-click way back, and an audit-log row for each start and stop (DESIGN §5).
import { sql } from "kysely";
import type { AppContext } from "../context";
import { createSession, revokeSession, type CurrentSession } from "../auth/session";

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

/** Researchers matching an e-mail or name fragment. Only what support needs: never passwords or card data. */
export async function searchResearchers(ctx: AppContext, query: string, limit = 50) {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return ctx.db
    .selectFrom("users as u")
    .leftJoin("countries as c", "c.id", "u.country_id")
    .select([
      "u.identity",
      "u.email",
      "u.first_name",
      "u.last_name",
      "u.institution",
      "u.localization",
      "u.active",
      "u.created_at",
      "c.name as country",
    ])
    .where("u.is_staff", "=", false)
    .where((eb) => eb.or([eb(sql`lower(u.email)`, "like", like), eb(sql`lower(u.first_name || ' ' || u.last_name)`, "like", like)]))
    .orderBy("u.email")
    .limit(limit)
    .execute();
}

export type StartResult = { ok: true; token: string } | { ok: false; error: "not-found" | "not-allowed" };

export async function startImpersonation(
  ctx: AppContext,
  staff: CurrentSession,
  targetIdentity: string,
  meta: { ip: string; userAgent?: string | null; token?: string },
): Promise<StartResult> {
  if (!staff.user.isStaff || staff.impersonatorId) return { ok: false, error: "not-allowed" };
  const target = await ctx.db
    .selectFrom("users")
    .select(["id", "identity", "is_staff", "active"])
    .where("identity", "=", targetIdentity)
    .executeTakeFirst();
  if (!target || !target.active) return { ok: false, error: "not-found" };
  // Staff accounts cannot be viewed as: that would widen a staff member's own rights.
  if (target.is_staff) return { ok: false, error: "not-allowed" };
  const token = await createSession(ctx.db, target.id, { impersonatorId: staff.user.id, ip: meta.ip, userAgent: meta.userAgent });
  // The staff member's own session ends; stopping gives them a fresh one (rotation both ways).
  await revokeSession(ctx.db, meta.token);
  await audit(ctx, staff.user.id, "impersonation.start", { type: "user", id: target.identity }, { ip: meta.ip });
  return { ok: true, token };
}

export async function stopImpersonation(
  ctx: AppContext,
  session: CurrentSession,
  meta: { ip: string; userAgent?: string | null; token?: string },
): Promise<{ ok: true; token: string } | { ok: false }> {
  if (!session.impersonatorId) return { ok: false };
  await revokeSession(ctx.db, meta.token);
  const token = await createSession(ctx.db, session.impersonatorId, { ip: meta.ip, userAgent: meta.userAgent });
  await audit(ctx, session.impersonatorId, "impersonation.stop", { type: "user", id: session.user.identity }, { ip: meta.ip });
  return { ok: true, token };
}
