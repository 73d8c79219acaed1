// Money and date formatting shared by pages, PDFs and e-mails (spec 2 §9). Money is the money module's
// (./money, ADR 054), re-exported here for the pages that format both.
import { LANG_TAG, type SiteLang } from "./i18n";

export { formatMoney, type CurrencyFormat } from "./money";

type DateInput = Date | string | number;

// The date styles of the product, by name.
const STYLES = {
  "long-time": { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", hour12: true },
  "short-time": { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", hour12: true },
  long: { year: "numeric", month: "long", day: "numeric" },
  short: { year: "numeric", month: "short", day: "numeric" },
  numeric: { year: "numeric", month: "2-digit", day: "2-digit" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

// Creating an Intl.DateTimeFormat costs far more than using one, and every page with a deadline
// formats dates: keep one per locale, time zone and style (they are immutable). Keyed by the style's name,
// not by its options serialised: the dashboard formats ~60 dates per render (ADR 086's profile).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(tag: string, style: keyof typeof STYLES, timeZone: string): Intl.DateTimeFormat {
  const key = `${tag}|${style}|${timeZone}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(tag, { ...STYLES[style], timeZone })));
  return f;
}

function toDate(input: DateInput): Date {
  return input instanceof Date ? input : new Date(input);
}

/** Languages whose dates are written day month year; Chinese and Japanese keep their native year-month-day order. */
const DAY_FIRST: Record<SiteLang, boolean> = { en: true, br: true, es: true, cn: false, jp: false };

/**
 * Date and time in the page's language with the 12-hour clock: "21 Nov 2026, 10:39 PM" in English, "21 nov.
 * 2026, 10:39 PM" in Portuguese, "2026年11月21日 下午10:39" in Chinese. Spec 3 §9 ("Product-wide"): "Dates display
 * as day, month, year with 12-hour time", a rule of the whole product, not of the English site only (issue 22
 * item 2; ADR 062 replaces ADR 022's 24-hour clock outside English). Chinese and Japanese keep their native
 * year-month-day order, which their readers expect (ADR 022).
 */
export function formatDateTime(input: DateInput, lang: SiteLang, timeZone = "UTC"): string {
  const date = toDate(input);
  const tag = LANG_TAG[lang];
  if (!DAY_FIRST[lang]) {
    return dateFormat(tag, "long-time", timeZone).format(date);
  }
  const parts = dateFormat(tag, "short-time", timeZone).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("day")} ${get("month")} ${get("year")}, ${get("hour")}:${get("minute")} ${get("dayPeriod")}`.trim();
}

/** Date without time, day month year (native order for cn and jp). */
export function formatDate(input: DateInput, lang: SiteLang, timeZone = "UTC"): string {
  const date = toDate(input);
  const tag = LANG_TAG[lang];
  if (!DAY_FIRST[lang]) {
    return dateFormat(tag, "long", timeZone).format(date);
  }
  const parts = dateFormat(tag, "short", timeZone).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("day")} ${get("month")} ${get("year")}`;
}

/** The date-filter format of the order and invoice lists: MM/dd/yyyy. */
export function formatFilterDate(input: DateInput, timeZone = "UTC"): string {
  const parts = dateFormat("en-US", "numeric", timeZone).formatToParts(toDate(input));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("month")}/${get("day")}/${get("year")}`;
}

const currencyNames = new Map<string, Intl.DisplayNames>();

/**
 * A currency's name in the page's language from the ICU data ("英镑" for GBP on /cn), as country names are;
 * `fallback` (the stored English name) only where the runtime has no name for the code.
 */
export function currencyName(isoCode: string, lang: SiteLang, fallback = isoCode): string {
  const tag = LANG_TAG[lang];
  let names = currencyNames.get(tag);
  if (!names) currencyNames.set(tag, (names = new Intl.DisplayNames([tag], { type: "currency", fallback: "none" })));
  try {
    return names.of(isoCode) ?? fallback;
  } catch {
    return fallback;
  }
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in the page's language ("Brasil" on /br); `fallback` where the runtime has none. */
export function countryName(iso2: string, lang: SiteLang, fallback = iso2): string {
  const tag = LANG_TAG[lang];
  let names = regionNames.get(tag);
  if (!names) regionNames.set(tag, (names = new Intl.DisplayNames([tag], { type: "region", fallback: "none" })));
  try {
    return names.of(iso2) ?? fallback;
  } catch {
    return fallback;
  }
}
