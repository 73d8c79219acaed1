// Language prefixes: a path without one is redirected to the visitor's
// language (cookie, then Accept-Language, then en), keeping path and query.
import { SITE_LANGS, isSiteLang, pickLanguage, type SiteLang } from "#common/i18n";

/** First path segments of the route table (spec 1 §2, spec 2 §2, spec 3 §2) that live under a language prefix. */
export const PREFIXED_SECTIONS = new Set([
  "login",
  "register",
  "certificate",
  "testimonials",
  "account",
  "referral-rewards",
  "chinese-digital-trial",
  "home",
  "error",
  "researcher",
  "logout",
  "support",
  "curie",
  "rubriq",
  "terms",
  "privacy",
  "staff",
]);

export function langOfPath(pathname: string): SiteLang | undefined {
  const first = pathname.split("/")[1];
  return isSiteLang(first) ? first : undefined;
}

/** Where to send a request for `pathname` that lacks a language prefix; undefined when no redirect applies. */
export function languageRedirect(
  pathname: string,
  search: string,
  cookieLang: string | undefined,
  acceptLanguage: string | undefined,
): string | undefined {
  const first = pathname.split("/")[1] ?? "";
  if (isSiteLang(first)) return undefined;
  if (pathname !== "/" && pathname !== "" && !PREFIXED_SECTIONS.has(first)) return undefined;
  const lang = pickLanguage(cookieLang, acceptLanguage);
  const rest = pathname === "/" ? "" : pathname;
  return `/${lang}${rest}${search}`;
}

export { SITE_LANGS };
