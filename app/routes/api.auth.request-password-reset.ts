import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiLang, json, readJson, requireMethod } from "#app/lib/api.server";
import { requestPasswordReset } from "#server/auth/password-reset";

export const loader = () => apiError("method-not-allowed", 405);

// POST /api/auth/request-password-reset { email } -> {} (the same answer whether or not the address is registered).
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readJson(request);
  const email = typeof body.email === "string" ? body.email.trim() : "";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return json({ error: "emailAddressInvalidFormat" }, 400);
  const outcome = await requestPasswordReset(context.app, {
    email,
    lang: apiLang(request),
    ip: context.ip,
    baseUrl: new URL(request.url).origin,
  });
  if (outcome === "rate-limited") return json({ error: "too-many-requests" }, 429);
  return json({});
}
