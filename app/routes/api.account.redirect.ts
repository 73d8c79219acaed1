import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiLang } from "#app/lib/api.server";
import { getCurrentSession, homeDirectory, safeRedirect } from "#app/lib/session.server";
import { localizationForHost } from "#server/config";
import { localizationRedirectTarget } from "#server/accounts/localization";

// GET /api/account/redirect{search}: sends a user whose account belongs to another localisation to that
// localisation's own site, keeping the path (?redirect=) and the rest of the query (spec 1 §2).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const lang = apiLang(request);
  const session = await getCurrentSession(request, context);
  const path = safeRedirect(url.searchParams.get("redirect"), session ? homeDirectory(lang) : `/${lang}`);
  if (!session) return Response.redirect(new URL(path, url.origin).toString(), 302);
  const snapshot = await context.app.config.snapshot();
  const site = localizationForHost(snapshot.localizations, request.headers.get("host"));
  const target = localizationRedirectTarget(snapshot.localizations, site.identity, session.user.localization, path, request);
  return new Response(null, { status: 302, headers: { Location: target, "Cache-Control": "no-store" } });
}
