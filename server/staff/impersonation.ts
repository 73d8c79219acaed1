// Staff "view as": a new session for the researcher that carries the staff member as impersonator,
// a one-click way back, and an audit-log row for each start and stop (DESIGN §5).
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import type { ImpersonationInput } from "#common/staff/schemas";
import { createSession, revokeSession } from "../accounts/session";
import type { Scope } from "../scope";
import { audit } from "../kernel/audit";

export { audit } from "../kernel/audit";

/** Researchers matching an e-mail or name fragment. Only what support needs: never passwords or card data. */
export async function searchResearchers(scope: Scope, query: string, limit = 50) {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return scope.app.db
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
      "c.iso2 as countryIso",
    ])
    .where("u.is_staff", "=", false)
    .where((eb) => eb.or([eb(sql`lower(u.email)`, "like", like), eb(sql`lower(u.first_name || ' ' || u.last_name)`, "like", like)]))
    .orderBy("u.email")
    .limit(limit)
    .execute();
}

/** The browser's current session token (revoked when "view as" starts or stops: rotation both ways). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const currentToken = (scope: Scope) => scope.sessionToken ?? undefined;

/**
 * The acting staff member views the portal as the researcher `identity` (a fresh session for them, carrying
 * the staff member as impersonator). Errors: `not-found` (unknown or inactive), `not-allowed` (not staff,
 * already viewing as someone, or a staff account).
 */
export async function startImpersonation(scope: Scope, input: ImpersonationInput): Promise<Result<{ token: string }>> {
  const staff = scope.session;
  if (!staff?.user.isStaff || staff.impersonatorId) return fail("not-allowed");
  const { app: ctx } = scope;
  // An identity that is no UUID names nobody; the uuid column would refuse the comparison (issue 14 item 7).
  if (!UUID.test(input.identity)) return fail("not-found");
  const target = await ctx.db
    .selectFrom("users")
    .select(["id", "identity", "is_staff", "active"])
    .where("identity", "=", input.identity)
    .executeTakeFirst();
  if (!target || !target.active) return fail("not-found");
  // Staff accounts cannot be viewed as: that would widen a staff member's own rights.
  if (target.is_staff) return fail("not-allowed");
  const token = await createSession(ctx.db, target.id, { impersonatorId: staff.user.id, ip: scope.ip, userAgent: scope.userAgent });
  // The staff member's own session ends; stopping gives them a fresh one (rotation both ways).
  await revokeSession(ctx.db, currentToken(scope));
  await audit(ctx, staff.user.id, "impersonation.start", { type: "user", id: target.identity }, { ip: scope.ip });
  return ok({ token });
}

/** Ends "view as": the staff member gets a fresh session of their own. Without one to end: `not-allowed`. */
export async function stopImpersonation(scope: Scope): Promise<Result<{ token: string }>> {
  const session = scope.session;
  if (!session?.impersonatorId) return fail("not-allowed");
  const { app: ctx } = scope;
  await revokeSession(ctx.db, currentToken(scope));
  const token = await createSession(ctx.db, session.impersonatorId, { ip: scope.ip, userAgent: scope.userAgent });
  await audit(ctx, session.impersonatorId, "impersonation.stop", { type: "user", id: session.user.identity }, { ip: scope.ip });
  return ok({ token });
}
