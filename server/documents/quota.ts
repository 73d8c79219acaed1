// What an anonymous visitor may store is bounded per address as well as per draft (issue 20 §5, ADR 049): a new
// draft cookie costs nothing, so a quota per draft alone let one address fill the portal-wide quota, which then
// stops every researcher's uploads. Here: the address group an upload is counted under, the per-address sums
// (what is stored now, what was uploaded in the last 24 hours), and the warning before the portal-wide quota is full.
import net from "node:net";
import { sql, type Transaction } from "kysely";
import type { AppContext } from "../context";
import type { Database as DBSchema } from "../../db/types";

/**
 * The group an address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address too), an IPv6
 * address as its /64 (`2001:db8:1:2::/64`), since one host is normally given a whole /64 and can rotate through it.
 * Anything else (no address: the socket was already gone) is one shared group, `unknown`, so that it cannot be
 * used to escape the quota.
 */
export function addressGroup(ip: string | null | undefined): string {
  const address = String(ip ?? "")
    .trim()
    .replace(/%.*$/, "") // an IPv6 zone (fe80::1%eth0) names an interface, not a host
    .toLowerCase();
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return "unknown";
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail made two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = text.slice(text.lastIndexOf(":") + 1);
  if (tail.includes(".")) {
    const [a, b, c, d] = tail.split(".").map(Number);
    text = `${text.slice(0, text.length - tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = rest === undefined ? [] : rest ? rest.split(":") : [];
  const middle = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16));
}

/** Bytes of one address group's anonymous files: stored now (not removed), and uploaded in the last 24 hours (removed or not). */
export async function addressUsage(trx: Transaction<DBSchema>, group: string): Promise<{ stored: number; lastDay: number }> {
  // Files keep the group only while anonymous (claimed: cleared), and removed ones only for the day they count.
  const { rows } = await sql<{ stored: string; last_day: string }>`
    select coalesce(sum(size_bytes) filter (where deleted_at is null), 0)::text as stored,
           coalesce(sum(size_bytes) filter (where created_at > now() - interval '1 day'), 0)::text as last_day
      from files
     where uploader_address = ${group} and owner_user_id is null`.execute(trx);
  return { stored: Number(rows[0].stored), lastDay: Number(rows[0].last_day) };
}

/** Fractions of the portal-wide quota at which the log warns; 1 (full: uploads refused) is logged as an error. */
export const PORTAL_USAGE_LEVELS = [0.8, 0.95, 1] as const;
/** A level warned about is not warned about again within this time, even if usage dips below it and comes back. */
const REWARN_MS = 60 * 60_000;

interface UsageWatch {
  level: number;
  warnedAt: number[];
}
// Per process (each web process warns on its own) and per context, so each test portal starts afresh.
const watches = new WeakMap<AppContext, UsageWatch>();

/**
 * Logs when the bytes stored reach 80 % and 95 % of the portal-wide quota (`uploadQuotaTotalBytes`) and when an
 * upload is refused because it is full: operators hear of it while researchers can still upload. Each upward
 * crossing logs once (at most once an hour per level), with the used and total bytes.
 */
export function watchPortalUsage(ctx: AppContext, usedBytes: number, quotaBytes: number, refusedAsFull: boolean): void {
  const fraction = refusedAsFull ? 1 : usedBytes / quotaBytes;
  const level = PORTAL_USAGE_LEVELS.filter((l) => fraction >= l).length;
  const watch = watches.get(ctx) ?? { level: 0, warnedAt: [] };
  watches.set(ctx, watch);
  const previous = watch.level;
  watch.level = level;
  if (level <= previous) return;
  const now = Date.now();
  if (now - (watch.warnedAt[level] ?? -Infinity) < REWARN_MS) return;
  watch.warnedAt[level] = now;
  const details = { usedBytes, quotaBytes, percent: Math.floor((usedBytes / quotaBytes) * 1000) / 10 };
  if (refusedAsFull || level === PORTAL_USAGE_LEVELS.length)
    ctx.logger.error(details, "the portal-wide upload storage quota (uploadQuotaTotalBytes) is full: uploads are refused");
  else
    ctx.logger.warn(
      details,
      `uploaded files use ${PORTAL_USAGE_LEVELS[level - 1] * 100} % of the portal-wide storage quota (uploadQuotaTotalBytes)`,
    );
}
