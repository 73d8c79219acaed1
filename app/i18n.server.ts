// Server-side i18n for Remix: the request's language comes from the URL prefix,
// else the language cookie, else Accept-Language (spec 1 §4 "Start-up").
import { createInstance, type i18n as I18n } from "i18next";
import { resourcesByTag } from "#server/i18n";
import { DEFAULT_NS, LANG_COOKIE, LANG_TAG, NAMESPACES, isSiteLang, pickLanguage, type SiteLang } from "#common/i18n";
import { Translator, type Resources } from "./lib/translate";

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

const translators = new Map<SiteLang, Translator>();

/** The translator components render with (shared across requests: the resources never change while the process runs). */
export function translatorFor(lang: SiteLang): Translator {
  let translator = translators.get(lang);
  if (!translator) translators.set(lang, (translator = new Translator(lang, resourcesByTag()[LANG_TAG[lang]] as Resources)));
  return translator;
}

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
    if (typeof code !== "string" || (fallback !== undefined && typeof fallback !== "string" && fallback !== false))
      return compute(code, fallback);
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
    await instance.init({
      lng: LANG_TAG[lang],
      fallbackLng: false,
      ns: [...NAMESPACES],
      defaultNS: DEFAULT_NS,
      resources: resourcesByTag(),
      interpolation: { escapeValue: false },
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
