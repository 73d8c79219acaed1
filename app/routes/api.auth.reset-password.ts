import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiLang, json, readJson, requireMethod } from "#app/lib/api.server";
import { resetPassword } from "#server/auth/password-reset";
import { createSession, sessionCookie } from "#server/auth/session";

export const loader = () => apiError("method-not-allowed", 405);

// POST /api/auth/reset-password { oneTimeLoginHash, userIdentity, password } -> { redirectUri }
// The link proves control of the mailbox, so the user is signed in on a fresh session.
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readJson(request);
  const token = typeof body.oneTimeLoginHash === "string" ? body.oneTimeLoginHash : "";
  const userIdentity = typeof body.userIdentity === "string" ? body.userIdentity : "";
  const password = typeof body.password === "string" ? body.password : "";
  if (password.length < 8) return json({ error: "password-too-short" }, 400);
  if (password.length > 128) return json({ error: "password-too-long" }, 400);
  const r = await resetPassword(context.app, { token, userIdentity, password });
  if (!r.ok) return json({ error: r.error }, 400);
  const sessionToken = await createSession(context.app.db, r.userId, { ip: context.ip, userAgent: request.headers.get("user-agent") });
  return json({ redirectUri: `/${apiLang(request)}/researcher` }, 200, { "Set-Cookie": sessionCookie(sessionToken, context.secure) });
}
