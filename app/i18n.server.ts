// Server-side i18n for Remix: the request's language comes from the URL prefix,
// else the language cookie, else Accept-Language (spec 1 §4 "Start-up").
import { createInstance, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { resourcesByTag } from "../server/i18n";
import { DEFAULT_NS, LANG_COOKIE, LANG_TAG, NAMESPACES, SITE_LANGS, isSiteLang, pickLanguage, type SiteLang } from "./lib/i18n";

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

/** The site language of a request. */
export function langForRequest(request: Request): SiteLang {
  const first = new URL(request.url).pathname.split("/")[1];
  if (isSiteLang(first)) return first;
  return pickLanguage(cookieValue(request, LANG_COOKIE), request.headers.get("accept-language"));
}

export const remixI18n = new RemixI18Next({
  detection: {
    supportedLanguages: SITE_LANGS.map((l) => LANG_TAG[l]),
    fallbackLanguage: LANG_TAG.en,
    order: ["custom"],
    findLocale: async (request) => LANG_TAG[langForRequest(request)],
  },
  i18next: {
    resources: resourcesByTag(),
    ns: [...NAMESPACES],
    defaultNS: DEFAULT_NS,
    fallbackLng: false,
    interpolation: { escapeValue: false },
  },
});

const instances = new Map<SiteLang, I18n>();

/**
 * i18next works out a language's lookup chain ("en-US" → ["en-US", "en"]) on every t() call, by string
 * and Intl work; with fixed languages and options the answer never changes, and it cost about 8 % of a
 * wizard page's CPU (ADR 010). Each caller gets its own copy of the array.
 */
function memoizeLanguageHierarchy(instance: I18n) {
  const utils = instance.services.languageUtils as { toResolveHierarchy(code: string, fallback?: unknown): string[] };
  const compute = utils.toResolveHierarchy.bind(utils);
  const memo = new Map<string, string[]>();
  utils.toResolveHierarchy = (code, fallback) => {
    if (typeof code !== "string" || (fallback !== undefined && typeof fallback !== "string" && fallback !== false)) return compute(code, fallback);
    const key = `${code}|${String(fallback)}`;
    let codes = memo.get(key);
    if (!codes) memo.set(key, (codes = compute(code, fallback)));
    return codes.slice();
  };
}

/** A ready i18next instance for rendering in `lang` (shared across requests: it is never mutated after init). */
export async function i18nFor(lang: SiteLang): Promise<I18n> {
  let instance = instances.get(lang);
  if (!instance) {
    instance = createInstance();
    await instance.use(initReactI18next).init({
      lng: LANG_TAG[lang],
      fallbackLng: false,
      ns: [...NAMESPACES],
      defaultNS: DEFAULT_NS,
      resources: resourcesByTag(),
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
    memoizeLanguageHierarchy(instance);
    instances.set(lang, instance);
  }
  return instance;
}

/** Translation function for loaders, actions and meta (from the shared per-language instance, not a new one per call). */
export async function getFixedT(request: Request, ns: string = DEFAULT_NS) {
  const instance = await i18nFor(langForRequest(request));
  return instance.getFixedT(instance.language, ns);
}
