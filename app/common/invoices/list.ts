// The invoice list's filter (spec 2 §2 "Invoices", §3 "Invoice filters", §9): from and to dates written
// MM/dd/yyyy (as the dashboard's search), the order number, and the page. One schema for the page's GET form
// and the list's query, so a bad date is a field error (400), never a 500. Isomorphic.
import * as z from "zod/mini";
import { filterFields } from "../orders/search";
import { INVOICE_ORDER_NUMBER_MAX, INVOICE_PAGE_MAX } from "./constants";

export * from "./constants";
export * from "./text";

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
