// The percentile curve in use (spec 3 §3, issue 23 item 2): the Brown corpus reference until the portal has
// PORTAL_REFERENCE_MIN completed assessments of its own, then the portal's scores. Rebuilt at most every ten
// minutes per process: a percentile moving by a fraction within that time changes nothing a reader can see, and
// reading every completed score on each list page would not scale.
import type { AppContext } from "../context";
import { PORTAL_REFERENCE_MIN, buildCurve, referenceCurve } from "./engine";
import type { PercentilePoint, ReferenceSet } from "./types";

export interface CurveInUse {
  curve: PercentilePoint[];
  reference: ReferenceSet;
}

export const CURVE_REBUILD_MS = 10 * 60_000;

const cached = new WeakMap<AppContext, { at: number; value: CurveInUse }>();

/** Completed scores of the portal, in tenths. */
async function portalScores(ctx: AppContext): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom("language_assessments")
    .select("score_tenths")
    .where("score_status", "=", "completed")
    .where("score_tenths", "is not", null)
    .execute();
  return rows.map((r) => Number(r.score_tenths) / 10);
}

/**
 * The curve and the set it describes. `minimum` lowers the switch-over count (tests); `fresh` skips the cache.
 */
export async function curveInUse(ctx: AppContext, options: { minimum?: number; fresh?: boolean } = {}): Promise<CurveInUse> {
  const hit = cached.get(ctx);
  if (!options.fresh && options.minimum === undefined && hit && Date.now() - hit.at < CURVE_REBUILD_MS) return hit.value;
  const minimum = options.minimum ?? PORTAL_REFERENCE_MIN;
  const scores = await portalScores(ctx);
  const value: CurveInUse =
    scores.length >= minimum ? { curve: buildCurve(scores), reference: { source: "portal", documents: scores.length } } : referenceCurve();
  if (options.minimum === undefined) cached.set(ctx, { at: Date.now(), value });
  return value;
}

/** Forgets the cached curve (tests). */
export function forgetCurve(ctx: AppContext): void {
  cached.delete(ctx);
}
