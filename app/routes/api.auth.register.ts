import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiLang, flatErrors, json, readJson, requireMethod } from "#app/lib/api.server";
import { registerSchema } from "#common/auth/schemas";
import { registerResearcher, listCountries } from "#server/accounts/registration";
import { sessionCookie } from "#server/auth/session";
import { attachPendingLink } from "#server/auth/social-link";

export const loader = () => apiError("method-not-allowed", 405);

// POST /api/auth/register: the registration payload (spec 1 §3) ->
// { loggedIn, redirectUri, userDetails: { email } } or { error, fieldErrors }.
// The password is never echoed back.
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readJson(request);
  const countryCode =
    body.countryCode && typeof body.countryCode === "object" ? (body.countryCode as { isoCode?: string }).isoCode : body.countryCode;
  const input = {
    ...body,
    intent: "register",
    countryCode,
    language: body.language ?? apiLang(request),
    agreeToTOS: body.agreeToTOS === true || body.agreeToTOS === "true",
    optinToMarketing: body.optinToMarketing === true || body.optinToMarketing === "true",
  };
  const parsed = registerSchema(await listCountries(context.app.db)).safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues)
      fieldErrors[String(issue.path[0])] ??= issue.message.replace(/^auth:register\.errors\./, "").replace(/^auth:login\.errors\./, "");
    return json({ loggedIn: false, error: Object.values(fieldErrors)[0] ?? "invalid", fieldErrors }, 400);
  }
  const v = parsed.data;
  const r = await registerResearcher(
    context.app,
    { ...v, optinToMarketing: v.optinToMarketing ?? false },
    { ip: context.ip, userAgent: request.headers.get("user-agent"), source: "api" },
  );
  if (!r.ok) {
    if ("error" in r) return json({ loggedIn: false, error: "too-many-attempts" }, 429, { "Retry-After": String(r.retryAfterSeconds) });
    const fieldErrors = flatErrors(r.fieldErrors as Record<string, string>);
    return json(
      { loggedIn: false, error: Object.values(fieldErrors)[0], fieldErrors },
      fieldErrors.email === "email-already-exists" ? 409 : 400,
    );
  }
  if (typeof body.link === "string") await attachPendingLink(context.app, body.link, { id: r.userId, email: v.email });
  return json({ loggedIn: true, redirectUri: `/${v.language}/researcher`, userDetails: { email: v.email, identity: r.identity } }, 201, {
    "Set-Cookie": sessionCookie(r.token, context.secure),
  });
}
