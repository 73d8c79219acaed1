// The cached user view's key and its invalidation, apart from account.ts so that every module that writes
// what the view shows (addresses, details, country) invalidates it without an import cycle.
import type { AppContext } from "../context";
import type { Scope } from "../scope";

export const USER_CACHE_SECONDS = 600;
export const userKey = (id: number) => `user:v1:${id}`;

export async function invalidateUser(ctx: AppContext, userId: number): Promise<void> {
  await ctx.cache.del(userKey(userId));
}

/** The acting user's id: account functions are only called for a signed-in user (pages and API guard it). */
export function actingUser(scope: Scope): number {
  if (scope.userId === null) throw new Error("account functions need a signed-in user");
  return scope.userId;
}
