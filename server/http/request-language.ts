// The language of a request (spec 1 §4 "Start-up"): the HTTP end of i18n (ADR 014), an adapter by ADR 057, so
// it reads the fetch Request, its URL prefix and the lang cookie; domain code gets the answer in `scope.lang`.
// In server/http, not server/i18n: the HTTP layer loads the translators (fallback pages), never the reverse (ADR 059).
import { DEFAULT_LANG, acceptedLanguages, isSiteLang, type SiteLang } from "#common/i18n";
import { cookies } from "./cookies";
import { langOfPath } from "./lang";

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

/** The site language of a request: URL prefix, lang cookie, Accept-Language, else English. */
export async function detectLang(request: Request): Promise<SiteLang> {
  return requestLanguage(request) ?? DEFAULT_LANG;
}
