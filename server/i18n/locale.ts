// The language of a request and the translators of loaders and actions, from remix-i18next (ADR 014).
// Server only: remix-i18next/server pulls in i18next, which stays out of the browser (ADR 011).
import { RemixI18Next } from "remix-i18next/server";
import type { i18n as I18n, TFunction, ThirdPartyModule } from "i18next";
import {
  DEFAULT_LANG,
  DEFAULT_NS,
  LANG_TAG,
  NAMESPACES,
  SITE_LANGS,
  acceptedLanguages,
  isSiteLang,
  tagToLang,
  type SiteLang,
} from "#common/i18n";
import { cookies } from "../http/cookies";
import { langOfPath } from "../http/lang";
import { resourcesByTag } from "./index";

/**
 * The language a request asks for: its URL prefix, else the lang cookie, else the best language of its
 * Accept-Language that the portal has (spec 1 §4 "Start-up"); undefined when none says. Each source is
 * read only when the ones before it say nothing (most requests stop at the prefix).
 *
 * remix-i18next's own "cookie" and "header" steps are not used. Its header step takes the first language
 * the header names whether or not the portal has it, and counts q=0 as a choice: "fr, es;q=0.8" would be
 * English instead of Spanish, "pt;q=0" Portuguese instead of English. Its cookie step expects a Remix
 * cookie (base64 JSON), not the bare value of cookies.lang. And its "custom" step always runs first, so
 * the spec's order is one custom step; the library matches its answer and falls back to English.
 */
export function requestLanguage(request: Request): SiteLang | undefined {
  const prefix = langOfPath(new URL(request.url).pathname);
  if (prefix) return prefix;
  const cookie = cookies.lang.read(request);
  if (isSiteLang(cookie)) return cookie;
  return acceptedLanguages(request.headers.get("accept-language"))[0];
}

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
  detection: {
    supportedLanguages: SITE_LANGS.map((lang) => LANG_TAG[lang]),
    fallbackLanguage: LANG_TAG[DEFAULT_LANG],
    order: ["custom"],
    findLocale: async (request) => {
      const lang = requestLanguage(request);
      return lang ? LANG_TAG[lang] : null;
    },
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

/** The site language of a request: URL prefix, lang cookie, Accept-Language, else English. */
export async function detectLang(request: Request): Promise<SiteLang> {
  return tagToLang(await siteI18n.getLocale(request)) ?? DEFAULT_LANG;
}

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
