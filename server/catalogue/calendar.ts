// Business-day deadlines in a localisation's time zone (catalogue.md "Delivery
// tiers"): weekends and the localisation's public holidays are skipped, and a
// deadline falls at the end of the business day, local time. Uses Intl only, so
// it runs the same on the server and in the browser.

/** End of the business day, local time (hours, minutes). */
export const END_OF_BUSINESS = { hour: 17, minute: 0 } as const;

/** Saturday and Sunday (Date#getUTCDay numbering) in all three localisations. */
const WEEKEND = new Set([0, 6]);

const DAY_MS = 86_400_000;

export interface BusinessCalendar {
  timeZone: string;
  /** ISO dates (YYYY-MM-DD) of public holidays. */
  holidays: string[];
}

// Creating an Intl.DateTimeFormat costs far more than using one: keep one per time zone (they are immutable).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let f = dateFormats.get(timeZone);
  if (!f)
    dateFormats.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return f;
}

function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    offsetFormats.set(timeZone, f);
  }
  return f;
}

/** The calendar date (YYYY-MM-DD) of `instant` in `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  const parts = dateFormat(timeZone).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Minutes that `timeZone` is ahead of UTC at `instant`. */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = offsetFormat(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The instant at which the wall clock in `timeZone` shows `date` `hour`:`minute`. */
export function zonedTime(date: string, hour: number, minute: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number);
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  // Two passes settle the offset also on the days a daylight-saving change happens.
  let instant = wall - offsetMinutes(wall, timeZone) * 60_000;
  instant = wall - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant);
}

export function isBusinessDay(date: string, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return !WEEKEND.has(weekday) && !holidays.has(date);
}

/** The date `days` business days after `date` (counting starts the next day). */
export function addBusinessDaysToDate(date: string, days: number, holidays: ReadonlySet<string>): string {
  let t = Date.parse(`${date}T00:00:00Z`);
  let left = days;
  // Long spans jump whole weeks: any 7 consecutive days hold exactly 5 weekdays, less
  // the holidays on weekdays among them. Keeps a 999,999-word count's deadline cheap.
  const weekdayHolidays = [...holidays].filter((h) => isBusinessDay(h, new Set())).map((h) => Date.parse(`${h}T00:00:00Z`));
  while (left > 10) {
    const weeks = Math.floor((left - 5) / 5);
    const end = t + weeks * 7 * DAY_MS;
    const skipped = weekdayHolidays.filter((h) => h > t && h <= end).length;
    left -= weeks * 5 - skipped;
    t = end;
  }
  while (left > 0) {
    t += DAY_MS;
    if (isBusinessDay(new Date(t).toISOString().slice(0, 10), holidays)) left--;
  }
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The deadline `days` business days after `now`: counting starts on the day
 * after today (local date), so the time of submission never shortens the work,
 * and ends at END_OF_BUSINESS local time.
 */
export function businessDeadline(now: Date, days: number, calendar: BusinessCalendar): Date {
  const holidays = new Set(calendar.holidays);
  const date = addBusinessDaysToDate(localDate(now, calendar.timeZone), days, holidays);
  return zonedTime(date, END_OF_BUSINESS.hour, END_OF_BUSINESS.minute, calendar.timeZone);
}
