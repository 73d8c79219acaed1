// The order list's filter limits, dates and fields without the schema (./search.ts): what the dashboard's search
// form needs in the browser (ADR 083).
import { ORDER_DATE_FILTER } from "./status";
import type { OrderSearchInput } from "./search";

export const ORDER_XID_MAX = 40;
export const ORDER_TITLE_FILTER_MAX = 200;
/** Pages past this are not pages anyone reaches by clicking (30 orders each): a bad link. */
export const ORDER_PAGE_MAX = 100_000;

/** "MM/dd/yyyy" → [year, month, day] when it names a real calendar day (02/30/2026 does not), else null. */
export function parseFilterDate(value: string): [number, number, number] | null {
  if (!ORDER_DATE_FILTER.test(value)) return null;
  const [m, d, y] = value.split("/").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900 || y > 9999) return null;
  return [y, m, d];
}

/** The filter without its page (what the path keeps when the page changes). */
export type OrderFilter = Omit<OrderSearchInput, "page">;

export const ORDER_FILTER_FIELDS = ["xid", "orderTitle", "from", "to"] as const;

/** Whether any filter is set (the search form shows even without orders then). */
export function hasFilter(f: Partial<OrderFilter>): boolean {
  return ORDER_FILTER_FIELDS.some((k) => Boolean(f[k]));
}
