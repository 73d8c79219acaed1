import type { LoaderFunctionArgs } from "@remix-run/node";
import { localizationForHost } from "../../server/config";
import { SITE_LANGS, LANG_LOCALE } from "~/lib/i18n";

// GET /api/application: application config values, feature flags and localisations (spec 1 §3).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const snapshot = await context.app.config.snapshot();
  const currentLocalization = localizationForHost(snapshot.localizations, request.headers.get("host"));
  return Response.json(
    {
      ...snapshot.config,
      featureFlags: snapshot.flags,
      localizations: snapshot.localizations,
      currentLocalization,
      siteLanguages: snapshot.config.siteLanguages,
      languageLocales: Object.fromEntries(SITE_LANGS.map((l) => [l, LANG_LOCALE[l]])),
      configLoadedAt: snapshot.loadedAt,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
