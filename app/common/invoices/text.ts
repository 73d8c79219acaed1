// The invoice pages' text helpers without the list's schema (./list.ts): what the browser needs (ADR 083).
import type { SiteLang } from "../i18n";

/**
 * An exchange rate as stored (numeric(18,8), "5.12340000") without its trailing zeros, with the decimal separator
 * of `locale` when given ("5,1234" in Portuguese). Text only: a rate is never turned into a binary float.
 */
export function rateText(rate: string, locale?: string): string {
  const trimmed = rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate;
  if (!locale) return trimmed;
  const separator = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return trimmed.replace(".", separator);
}

/**
 * The order the invoice page's date filter is typed in, as app/common/format.ts writes each language's dates:
 * day first in Portuguese and Spanish (DD/MM/AAAA: a Brazilian reads 03/04 as 3 April), year first in Chinese and
 * Japanese. English keeps the spec's MM/dd/yyyy (spec 2 §9, the US site's own order), which the query carries.
 */
export const FILTER_DATE_ORDER: Record<SiteLang, "mdy" | "dmy" | "ymd"> = { en: "mdy", br: "dmy", es: "dmy", cn: "ymd", jp: "ymd" };

/** A filter date typed in the page's order as the list's query writes it (MM/dd/yyyy); anything else unchanged. */
export function filterDateOfPage(value: string, lang: SiteLang): string {
  const parts = value.trim().split("/");
  if (parts.length !== 3 || FILTER_DATE_ORDER[lang] === "mdy") return value;
  const [d, m, y] = FILTER_DATE_ORDER[lang] === "dmy" ? parts : [parts[2], parts[1], parts[0]];
  return `${m}/${d}/${y}`;
}
