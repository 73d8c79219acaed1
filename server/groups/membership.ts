// Preferred groups, the researcher's side (spec 3 §2, §3 "Preferred group", §4; issue 25 item 5, ADR 077): join by
// code, leave, and the group as the widgets and the account show it. Codes are not enumerable: every join is
// counted per user and per address before the lookup, and a wrong, inactive or unknown code give one generic error.
// The discount itself is the pricing engine's (server/order-form/price.ts pricingContextOf reads
// users.preferred_group_id on every price), so an open order form's price follows a join or a leave at once.
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import type { JoinGroupInput } from "#common/groups/schemas";
import type { Scope } from "../scope";
import type { AppContext } from "../context";
import { rateLimit } from "../kernel/rate-limit";
import { auditImpersonated } from "../kernel/audit";
import { invalidateUser } from "../accounts/user-cache";
import { userRowOf } from "../accounts/user-row";

export const GROUP_JOIN_GENERIC_ERROR = "home:errors.preferred-group-join-generic-error";

/** The user's group as the widgets and the account show it (spec 3 §3 "Preferred group"). */
export interface PreferredGroupView {
  code: string;
  name: string;
  /** A percent when `percentageDiscount`, else an amount in USD cents. */
  discount: number;
  percentageDiscount: boolean;
  membershipDisplayed: boolean;
  shareable: boolean;
  greetingText: string | null;
  /** Whether an order placed since joining carried the group's discount. */
  discountUsed: boolean;
  joinedAt: string | null;
}

/** The discount column: numeric(10,2) as text; a percent, or an amount in USD cents (whole). */
const discountOf = (v: string | number) => Math.round(Number(v) * 100) / 100;

/** The signed-in user's active group, or null (none, or the group was deactivated). */
export async function preferredGroupOf(scope: Scope): Promise<PreferredGroupView | null> {
  if (scope.userId === null) return null;
  return preferredGroupOfUser(scope.app, scope.userId);
}

export async function preferredGroupOfUser(app: AppContext, userId: number): Promise<PreferredGroupView | null> {
  // The user's row is shared by the page's widgets (one read per page); most researchers have no group: no query more.
  const user = await userRowOf(app, userId);
  if (!user?.preferred_group_id) return null;
  const row = await app.db
    .selectFrom("preferred_groups as g")
    .select([
      "g.code",
      "g.name",
      "g.discount",
      "g.percentage_discount",
      "g.membership_displayed",
      "g.shareable",
      "g.greeting_text",
      "g.active",
    ])
    .where("g.id", "=", user.preferred_group_id)
    .executeTakeFirst();
  if (!row || !row.active) return null;
  const joinedAt = user.preferred_group_joined_at ? new Date(user.preferred_group_joined_at) : null;
  let used = app.db
    .selectFrom("orders")
    .select("id")
    .where("user_id", "=", userId)
    .where(
      sql<boolean>`discounts::jsonb @> ${JSON.stringify([{ kind: "Preferred group discount", code: row.code, applied: true }])}::jsonb`,
    );
  if (joinedAt) used = used.where("created_at", ">=", joinedAt);
  const usedRow = await used.limit(1).executeTakeFirst();
  return {
    code: row.code,
    name: row.name,
    discount: discountOf(row.discount),
    percentageDiscount: row.percentage_discount,
    membershipDisplayed: row.membership_displayed,
    shareable: row.shareable,
    greetingText: row.greeting_text,
    discountUsed: Boolean(usedRow),
    joinedAt: joinedAt ? joinedAt.toISOString() : null,
  };
}

async function joinLimits(scope: Scope): Promise<{ perUser: number; perAddress: number }> {
  const limits = (await scope.app.config.snapshot()).config.rateLimits as Record<string, unknown>;
  const n = (v: unknown, d: number) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : d);
  return { perUser: n(limits.groupJoinsPerUserPerHour, 10), perAddress: n(limits.groupJoinsPerAddressPerHour, 30) };
}

const HOUR = 3600;

/**
 * Joins the group whose code is typed (any case, spaces trimmed). Field error groupCode: the generic error for a
 * wrong, inactive or unknown code alike. Errors: `too-many-attempts` (429, details.retryAfterSeconds) once the user
 * or the address tried too often this hour — counted before the lookup, successes too.
 */
export async function joinPreferredGroup(scope: Scope, input: Pick<JoinGroupInput, "groupCode">): Promise<Result<PreferredGroupView>> {
  const userId = scope.userId;
  if (userId === null) return fail("sign-in-required");
  const limits = await joinLimits(scope);
  const [byUser, byAddress] = await Promise.all([
    rateLimit(scope.app.cache, `group-join:user:${userId}`, limits.perUser, HOUR),
    rateLimit(scope.app.cache, `group-join:ip:${scope.ip}`, limits.perAddress, HOUR),
  ]);
  if (!byUser.allowed || !byAddress.allowed) {
    return fail("too-many-attempts", {
      retryAfterSeconds: Math.max(byUser.allowed ? 0 : byUser.retryAfterSeconds, byAddress.allowed ? 0 : byAddress.retryAfterSeconds),
    });
  }
  const code = input.groupCode.trim().toUpperCase();
  if (!code || code.length > 64) return invalid({ groupCode: GROUP_JOIN_GENERIC_ERROR });
  const group = await scope.app.db
    .selectFrom("preferred_groups")
    .select(["id", "code"])
    .where("code", "=", code)
    .where("active", "=", true)
    .executeTakeFirst();
  if (!group) return invalid({ groupCode: GROUP_JOIN_GENERIC_ERROR });
  await scope.app.db.transaction().execute(async (trx) => {
    // Joining the group one is in already keeps the first joining date (its discountUsed stays true).
    await trx
      .updateTable("users")
      .set({ preferred_group_id: group.id, preferred_group_joined_at: sql`now()` })
      .where("id", "=", userId)
      .where((eb) => eb.or([eb("preferred_group_id", "is", null), eb("preferred_group_id", "!=", group.id)]))
      .execute();
    await auditImpersonated(
      { ...scope, app: { db: trx } },
      "preferred-group.join",
      { type: "user", id: String(userId) },
      { code: group.code },
    );
  });
  await invalidateUser(scope.app, userId);
  const view = await preferredGroupOf(scope);
  return view ? ok(view) : invalid({ groupCode: GROUP_JOIN_GENERIC_ERROR });
}

/** Leaves the group (none: nothing happens, still ok). Answers whether there was one. */
export async function leavePreferredGroup(scope: Scope): Promise<Result<{ left: boolean }>> {
  const userId = scope.userId;
  if (userId === null) return fail("sign-in-required");
  const left = await scope.app.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("users")
      .set({ preferred_group_id: null, preferred_group_joined_at: null })
      .where("id", "=", userId)
      .where("preferred_group_id", "is not", null)
      .executeTakeFirst();
    const changed = Number(r.numUpdatedRows) > 0;
    if (changed) await auditImpersonated({ ...scope, app: { db: trx } }, "preferred-group.leave", { type: "user", id: String(userId) });
    return changed;
  });
  await invalidateUser(scope.app, userId);
  return ok({ left });
}
