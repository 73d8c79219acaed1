// The columns of a user's row that the page widgets of several areas read (referral link, balances, rewards,
// preferred group, digital prices), read once per read-only request instead of once per widget: the dashboard
// selected from `users` five times per page (ADR 081's "per-request user row", ADR 086).
//
// Only a GET or HEAD request shares its read: no state changes on such a request (DESIGN §5), so every widget of
// the page sees the same row, as it would have within a few milliseconds anyway. Outside a request (jobs, tests)
// and in an action's request (which may write the row, then read it) every call reads afresh.
import type { AppContext } from "../context";
import { currentRequest, type RequestContext } from "../request-context";

const COLUMNS = [
  "referral_code",
  "localization",
  "language",
  "currency_iso",
  "hide_invoices",
  "reward_points",
  "loyalty_level",
  "has_rewards",
  "preferred_group_id",
  "preferred_group_joined_at",
] as const;

function readRow(ctx: AppContext, userId: number) {
  return ctx.db.selectFrom("users").select(COLUMNS).where("id", "=", userId).executeTakeFirst();
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof readRow>>>;

// Per request (its context object, dropped with it) and user. A request is answered by one portal, so one app context.
const perRequest = new WeakMap<RequestContext, Map<number, Promise<UserRow | undefined>>>();

/** The user's widget columns: one read per read-only request, a fresh read otherwise. Undefined: no such user. */
export function userRowOf(ctx: AppContext, userId: number): Promise<UserRow | undefined> {
  const request = currentRequest();
  if (!request || (request.method !== "GET" && request.method !== "HEAD")) return readRow(ctx, userId);
  let rows = perRequest.get(request);
  if (!rows) perRequest.set(request, (rows = new Map()));
  let row = rows.get(userId);
  if (!row) {
    row = readRow(ctx, userId);
    rows.set(userId, row);
    // A failed read is not kept: the next widget tries again (and meets the same outage handling).
    row.catch(() => rows.delete(userId));
  }
  return row;
}
