import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, json, requireMethod } from "#app/lib/api.server";
import { readCookie } from "#app/lib/session.server";
import { clearedSessionCookie, revokeSession, SESSION_COOKIE } from "#server/auth/session";

export const loader = () => apiError("method-not-allowed", 405);

// POST /api/auth/logout: revokes this session.
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  await revokeSession(context.app.db, readCookie(request, SESSION_COOKIE));
  return json({ loggedIn: false }, 200, { "Set-Cookie": clearedSessionCookie(context.secure) });
}
