// Site languages, shared by client and server.
// The URL prefix (en, cn, ...) is what users see; the locale (en_US, ...) names
// the translation folders and the back-end's language codes; the BCP 47 tag
// (en-US, ...) is what <html lang>, i18next and Intl use.

export const SITE_LANGS = ["en", "cn", "jp", "br", "es"] as const;
export type SiteLang = (typeof SITE_LANGS)[number];
export const DEFAULT_LANG: SiteLang = "en";

export const LANG_LOCALE: Record<SiteLang, string> = {
  en: "en_US",
  cn: "zh_CN",
  jp: "ja_JP",
  br: "pt_BR",
  es: "es_ES",
};

export const LANG_TAG: Record<SiteLang, string> = {
  en: "en-US",
  cn: "zh-CN",
  jp: "ja-JP",
  br: "pt-BR",
  es: "es-ES",
};

/** The language's own name, shown in the language switcher. */
export const LANG_NATIVE_NAME: Record<SiteLang, string> = {
  en: "English",
  cn: "中文",
  jp: "日本語",
  br: "Português",
  es: "Español",
};

/** Namespaces (one JSON file each under locales/{locale}/). */
export const NAMESPACES = [
  "common",
  "auth",
  "account",
  "social",
  "wechat",
  "catalogue",
  "order",
  "pdf",
  // Issue 11: orders after placing (states, mails), the dashboard, order details, the staff console, certificates, support.
  "orders",
  "dashboard",
  "details",
  "staffops",
  "certificate",
  "support",
  // Issue 12: the shared payment form, provider sandboxes, invoices and their documents, vouchers and staff payments.
  "payment",
  "sandbox",
  "invoices",
  "staffpay",
  // Issue 13: prepayments and the currency chooser, credits (spending, staff grants), fapiao.
  "prepay",
  "credits",
  "fapiao",
  // Issue 23: the grammar check (pages, errors, captcha).
  "grammar",
  // Issue 24: digital editing and digital translation (pages, purchases, add-in, survey, errors).
  "digital",
  // Issue 25: rewards and promotions (helper R), referrals and testimonials (helper F), preferred groups and home (helper H).
  "rewards",
  "referrals",
  "home",
] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const DEFAULT_NS: Namespace = "common";

export function isSiteLang(value: unknown): value is SiteLang {
  return typeof value === "string" && (SITE_LANGS as readonly string[]).includes(value);
}

export function tagToLang(tag: string): SiteLang | undefined {
  const found = (Object.keys(LANG_TAG) as SiteLang[]).find((l) => LANG_TAG[l] === tag);
  return found;
}

/** Maps a BCP 47 language range from Accept-Language (e.g. "pt", "zh-Hans-CN", "ja") to a site language. */
export function langFromLanguageRange(range: string): SiteLang | undefined {
  const primary = range.trim().toLowerCase().split(/[-_]/)[0];
  switch (primary) {
    case "en":
      return "en";
    case "zh":
      return "cn";
    case "ja":
      return "jp";
    case "pt":
      return "br";
    case "es":
      return "es";
    default:
      return undefined;
  }
}

/**
 * The site languages an Accept-Language header asks for, best first: ranges by quality (ties keep the
 * header's order), q=0 left out, each range mapped by its primary subtag, ranges the portal lacks skipped.
 */
export function acceptedLanguages(acceptLanguage: string | undefined | null): SiteLang[] {
  if (!acceptLanguage) return [];
  const ranges = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [range, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { range, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.range && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const langs: SiteLang[] = [];
  for (const r of ranges) {
    const lang = langFromLanguageRange(r.range);
    if (lang && !langs.includes(lang)) langs.push(lang);
  }
  return langs;
}

/**
 * Picks the visitor's language: the language cookie first, then the
 * Accept-Language header (by quality), then English.
 */
export function pickLanguage(cookieValue: string | undefined | null, acceptLanguage: string | undefined | null): SiteLang {
  if (isSiteLang(cookieValue)) return cookieValue;
  return acceptedLanguages(acceptLanguage)[0] ?? DEFAULT_LANG;
}

/** Replaces (or adds) the language prefix of a path. */
export function withLang(lang: SiteLang, path: string): string {
  const clean = path.startsWith("/") ? path : `/${path}`;
  const first = clean.split("/")[1];
  if (isSiteLang(first)) return `/${lang}${clean.slice(first.length + 1)}`;
  return clean === "/" ? `/${lang}` : `/${lang}${clean}`;
}
