// Dates of a list's filter (issue 21 §5, ADR 056): MM/dd/yyyy days of the researcher's localisation's clock (the
// clock the list shows) as the instants a query compares `created_at` with. The order list and the invoice list
// both filter by them; they lived in orders/dashboard.ts, which tied billing to orders. Imported by path.
import { parseFilterDate, type OrderFilter } from "#common/orders/search";

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    offsetFormats.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - instant;
}

/** The instant a calendar day starts in `timeZone` (twice around, so a day that starts a DST change is right). */
export function startOfDay([y, m, d]: [number, number, number], timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d);
  const first = wall - zoneOffsetMs(wall, timeZone);
  return new Date(wall - zoneOffsetMs(first, timeZone));
}

/**
 * The filter's days as the instants searchOrders compares `created_at` with: `from` is the start of its day;
 * `to` is 24 hours before the start of the next day (searchOrders adds the 24 hours back), so the whole of
 * the `to` day counts, short and long DST days included.
 */
export function filterInstants(filter: Pick<OrderFilter, "from" | "to">, timeZone: string): { from?: string; to?: string } {
  const from = filter.from ? parseFilterDate(filter.from) : null;
  const to = filter.to ? parseFilterDate(filter.to) : null;
  let toInstant: string | undefined;
  if (to) {
    const next = new Date(Date.UTC(to[0], to[1] - 1, to[2] + 1));
    const nextStart = startOfDay([next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()], timeZone);
    toInstant = new Date(nextStart.getTime() - 24 * 3600 * 1000).toISOString();
  }
  return { from: from ? startOfDay(from, timeZone).toISOString() : undefined, to: toInstant };
}
