// The order list's filter (spec 2 §2 "Dashboard and order list", §7 GET /api/order/search, §9): order number,
// order title, from and to dates written MM/dd/yyyy, and the page. One schema for the dashboard's form, its
// path (/researcher/index/orders/{xid}/{orderTitle}/{from}/{to}/{page}) and the API, so a bad date is the same
// field error everywhere (a 400 with `date-invalid`, never a 500). Isomorphic.
import * as z from "zod/mini";
import { ORDER_PAGE_MAX, ORDER_TITLE_FILTER_MAX, ORDER_XID_MAX, parseFilterDate } from "./filter";

export * from "./filter";

const E = (code: string) => ({ error: `dashboard:errors.${code}` });

/** A text field: trimmed; empty (or absent, or the path's "_") is no filter. */
const optionalText = (max: number, code: string) =>
  z.pipe(
    z.transform((v: unknown) => {
      const s = typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim();
      return s === "" || s === "_" ? undefined : s;
    }),
    z.optional(z.string().check(z.maxLength(max, E(code)))),
  );

/**
 * The filter fields a dated list shares (orders here, invoices in #common/invoices/list): a MM/dd/yyyy date, the
 * page number (1 by default, at most `pageMax`), and the check that `to` is not before `from`; messages in `ns`.
 */
export function filterFields(ns: string, pageMax: number) {
  const e = (code: string) => ({ error: `${ns}:errors.${code}` });
  const text = z.pipe(
    z.transform((v: unknown) => {
      const s = typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim();
      return s === "" || s === "_" ? undefined : s;
    }),
    z.optional(z.string().check(z.maxLength(10, e("date-invalid")))),
  );
  return {
    date: z.pipe(text, z.optional(z.string().check(z.refine((v) => parseFilterDate(v) !== null, e("date-invalid"))))),
    page: z.pipe(
      z.transform((v: unknown) => (v === undefined || v === null || v === "" ? "1" : String(v).trim())),
      z.pipe(
        z.string().check(z.regex(/^\d{1,6}$/, e("page-invalid"))),
        z.pipe(z.transform(Number), z.number().check(z.gte(1, e("page-invalid")), z.lte(pageMax, e("page-invalid")))),
      ),
    ),
    range: z.superRefine((v: { from?: string; to?: string }, ctx) => {
      if (v.from && v.to && dayNumber(v.from) > dayNumber(v.to)) {
        ctx.addIssue({ code: "custom", path: ["to"], message: `${ns}:errors.date-range-invalid` });
      }
    }),
  };
}

/** A filter date as a comparable number (yyyymmdd), or NaN. */
const dayNumber = (v: string) => {
  const p = parseFilterDate(v);
  return p ? p[0] * 10000 + p[1] * 100 + p[2] : Number.NaN;
};

const orderFilter = filterFields("dashboard", ORDER_PAGE_MAX);

/** GET /api/order/search's query, the dashboard's filter form and its path: all fields optional, page 1 by default. */
export const orderSearchSchema = z
  .object({
    xid: optionalText(ORDER_XID_MAX, "xid-too-long"),
    orderTitle: optionalText(ORDER_TITLE_FILTER_MAX, "title-too-long"),
    from: orderFilter.date,
    to: orderFilter.date,
    page: orderFilter.page,
  })
  .check(orderFilter.range);

export type OrderSearchInput = z.output<typeof orderSearchSchema>;
