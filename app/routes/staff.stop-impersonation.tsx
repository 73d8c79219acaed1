import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getCurrentSession, readCookie, requireLang } from "#app/lib/session.server";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { SESSION_COOKIE } from "#server/auth/session";
import { stopImpersonation } from "#server/staff/impersonation";

// POST: ends "view as" and returns the staff member to the staff area on a fresh session.
export async function action({ request, context }: ActionFunctionArgs) {
  const lang = requireLang(request);
  const session = await getCurrentSession(request, context);
  if (!session) return redirect(`/${lang}/login`, { status: 303 });
  const r = await stopImpersonation(context.app, session, {
    ip: context.ip,
    userAgent: request.headers.get("user-agent"),
    token: readCookie(request, SESSION_COOKIE),
  });
  if (!r.ok) return redirect(`/${lang}`, { status: 303 });
  return signedInRedirect(context, { token: r.token, lang, target: `/${lang}/staff` });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
