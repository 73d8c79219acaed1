// The translators of loaders, actions and API answers, from remix-i18next (ADR 014); the language of a
// request is read by server/http/request-language.ts.
// Server only: remix-i18next/server pulls in i18next, which stays out of the browser (ADR 011).
import { RemixI18Next } from "remix-i18next/server";
import type { i18n as I18n, TFunction, ThirdPartyModule } from "i18next";
import { DEFAULT_LANG, DEFAULT_NS, LANG_TAG, NAMESPACES, SITE_LANGS, type SiteLang } from "#common/i18n";
import { resourcesByTag } from "./index";

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

/** i18next hands every instance it initialises to its "3rdParty" modules, after its services exist. */
const memoizedHierarchy: ThirdPartyModule = { type: "3rdParty", init: memoizeLanguageHierarchy };

export const siteI18n = new RemixI18Next({
  // This instance only makes translators: the language of a request is read by server/http/request-language.ts (ADR 057).
  detection: {
    supportedLanguages: SITE_LANGS.map((lang) => LANG_TAG[lang]),
    fallbackLanguage: LANG_TAG[DEFAULT_LANG],
  },
  i18next: {
    fallbackLng: false,
    ns: [...NAMESPACES],
    defaultNS: DEFAULT_NS,
    resources: resourcesByTag(),
    interpolation: { escapeValue: false },
  },
  plugins: [memoizedHierarchy],
});

const translators = new Map<string, Promise<TFunction>>();

/**
 * The i18next t of a language and namespace, for loaders, actions and API answers. remix-i18next makes a
 * new i18next instance for every getFixedT (about 1.2 ms; the t of a kept instance costs 10 µs), so each
 * pair is made once and kept: at most 5 × 8 instances, all sharing the one resources object.
 */
export function requestTranslator(lang: SiteLang, ns: string = DEFAULT_NS): Promise<TFunction> {
  const key = `${lang}:${ns}`;
  let t = translators.get(key);
  if (!t) {
    t = siteI18n.getFixedT(LANG_TAG[lang], ns);
    translators.set(key, t);
    t.catch(() => translators.delete(key));
  }
  return t;
}
