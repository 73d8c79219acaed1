import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, json, readJson, requireMethod } from "#app/lib/api.server";
import { signInWithPassword } from "#server/auth/login";
import { sessionCookie } from "#server/auth/session";
import { getUserView } from "#server/accounts/account";
import { LANG_COOKIE } from "#common/i18n";

export const loader = () => apiError("method-not-allowed", 405);

// POST /api/auth/login { email, password } -> { loggedIn, user, language } or { error }
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readJson(request);
  const email = typeof body.email === "string" ? body.email : "";
  const password = typeof body.password === "string" ? body.password : "";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) return json({ loggedIn: false, error: "emailAddressInvalidFormat" }, 400);
  if (!password) return json({ loggedIn: false, error: "password-required" }, 400);
  const r = await signInWithPassword(context.app, { email, password, ip: context.ip, userAgent: request.headers.get("user-agent") });
  if (!r.ok) {
    const status = r.error === "too-many-attempts" ? 429 : r.error === "local-auth-disabled" ? 403 : 401;
    return json(
      { loggedIn: false, error: r.error },
      status,
      r.error === "too-many-attempts" ? { "Retry-After": String(r.retryAfterSeconds) } : undefined,
    );
  }
  const user = await getUserView(context.app, r.user.id);
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(r.token, context.secure));
  headers.append("Set-Cookie", `${LANG_COOKIE}=${r.user.language}; Path=/; Max-Age=31536000; SameSite=Lax`);
  return json({ loggedIn: true, user, language: r.user.language }, 200, headers);
}
