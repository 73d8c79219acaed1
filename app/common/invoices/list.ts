// The invoice list's filter (spec 2 §2 "Invoices", §3 "Invoice filters", §9): from and to dates written
// MM/dd/yyyy (as the dashboard's search), the order number, and the page. One schema for the page's GET form
// and the list's query, so a bad date is a field error (400), never a 500. Isomorphic.
import * as z from "zod/mini";
import { filterFields } from "../orders/search";
import { INVOICE_ORDER_NUMBER_MAX, INVOICE_PAGE_MAX } from "./constants";
import type { SiteLang } from "../i18n";

export * from "./constants";

const E = (code: string) => ({ error: `invoices:errors.${code}` });

const optionalText = (max: number, code: string) =>
  z.pipe(
    z.transform((v: unknown) => {
      const s = typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim();
      return s === "" ? undefined : s;
    }),
    z.optional(z.string().check(z.maxLength(max, E(code)))),
  );

const invoiceFilter = filterFields("invoices", INVOICE_PAGE_MAX);

/** The list page's query (?from=&to=&orderNumber=&page=): all optional, page 1 by default. */
export const invoiceListSchema = z
  .object({
    from: invoiceFilter.date,
    to: invoiceFilter.date,
    orderNumber: optionalText(INVOICE_ORDER_NUMBER_MAX, "order-number-too-long"),
    page: invoiceFilter.page,
  })
  .check(invoiceFilter.range);

export type InvoiceListQuery = z.output<typeof invoiceListSchema>;
export type InvoiceListInput = InvoiceListQuery & { unpaidOnly?: boolean };

/**
 * GET /api/invoice/{n}/pdf's query (spec 2 §7), optional: a localisation whose language the PDF is printed in.
 * It never changes the issuer, its tax identifiers or the amounts (ADR 052).
 */
export const invoicePdfQuery = z.object({ localization: z.optional(z.string().check(z.maxLength(8))) });

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
