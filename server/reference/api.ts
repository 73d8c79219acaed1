// Reference-data API (spec 1 §3, §5, §7): application config, areas of study, journals.
import { LANG_LOCALE, SITE_LANGS } from "#common/i18n";
import { ok } from "#common/result";
import { searchQuerySchema } from "#common/reference/schemas";
import { endpoint, type EndpointTable } from "../http/api/endpoint";
import { localizationForHost } from "../config";
import { AREA_SEARCH_MIN_CHARS, getCatalogue, searchAreasOfStudy, searchJournals } from "../catalogue";
import { fixedT } from "../i18n";

export const referenceApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/application",
    auth: "none",
    summary: "Application config values, feature flags and localisations (spec 1 §3).",
    async handler({ scope }) {
      const [snapshot, catalogue] = await Promise.all([scope.app.config.snapshot(), getCatalogue(scope.app)]);
      const t = fixedT(scope.lang, "catalogue");
      return ok({
        ...snapshot.config,
        // Spec 1 §3 "serviceGroups": the catalogue's groups in their order, named in the request's language,
        // with the slugs of their services (prices come with the order form, in its currency).
        serviceGroups: [...catalogue.groups]
          .sort((a, b) => a.sortOrder - b.sortOrder)
          .map((g) => ({
            slug: g.slug,
            name: t(g.nameKey),
            serviceType: g.serviceType,
            columns: g.columns,
            services: catalogue.services.filter((s) => s.group === g.slug).map((s) => s.slug),
          })),
        featureFlags: snapshot.flags,
        localizations: snapshot.localizations,
        currentLocalization: localizationForHost(snapshot.localizations, scope.host),
        siteLanguages: snapshot.config.siteLanguages,
        languageLocales: Object.fromEntries(SITE_LANGS.map((l) => [l, LANG_LOCALE[l]])),
        configLoadedAt: snapshot.loadedAt,
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/areas-of-study",
    auth: "none",
    query: searchQuerySchema,
    summary: "Areas of study matching ?q= (at least 2 characters, at most 6 matches over all three levels; spec 1 §5).",
    async handler({ scope, query }) {
      if (query.q.trim().length < AREA_SEARCH_MIN_CHARS) return ok({ areas: [] });
      return ok({ areas: await searchAreasOfStudy(scope.app.db, query.q, scope.lang) });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/journals",
    auth: "none",
    query: searchQuerySchema,
    summary: "Journals whose name or ISSN contains ?q= (at least 3 characters, at most 10; spec 1 §5).",
    async handler({ scope, query }) {
      return ok({ journals: await searchJournals(scope.app.db, query.q) });
    },
  }),
];
