// The score and the percentile (ADR 069): pure functions of the issue counts and of a set of scores.
import { ISSUE_CATEGORIES, SCORE_MAX, type IssueCategory } from "#common/grammar-check/constants";
import type { PercentilePoint } from "../types";
import { CATEGORY_WEIGHTS } from "./categories";

/**
 * The density at which the score is 5 (half of SCORE_MAX). Calibrated on Brown genre J (ADR 069): 6.1, spec 3's
 * "exceptional" threshold, falls at D = 2.24, the density of the roughest of the 80 edited texts (max 2.23); 2.69,
 * "average", at D = 9.5, about four times that.
 */
export const SCORE_HALF_DENSITY = 3.5;

/** Weighted issues per 100 words, rounded to two decimals (0 for a text without words). */
export function weightedDensity(counts: Readonly<Record<IssueCategory, number>>, words: number): number {
  if (words <= 0) return 0;
  let weighted = 0;
  for (const category of ISSUE_CATEGORIES) weighted += (counts[category] ?? 0) * CATEGORY_WEIGHTS[category];
  return Math.round((weighted * 10_000) / words) / 100;
}

/** score = 10 / (1 + D / SCORE_HALF_DENSITY), one decimal: 10 for a clean text, falling smoothly, never below 0. */
export function scoreFromDensity(density: number): number {
  const d = Math.max(0, density);
  return Math.round((SCORE_MAX * 10) / (1 + d / SCORE_HALF_DENSITY)) / 10;
}

/** The density a score corresponds to (the inverse of scoreFromDensity before rounding): for the ADR's table. */
export function densityForScore(score: number): number {
  return SCORE_HALF_DENSITY * (SCORE_MAX / score - 1);
}

/**
 * The percentile curve of a set of scores: for each percentile p (0–100) the lowest score that is at or above
 * p % of the set ("at or below" counts ties in the document's favour). p = 0 needs 0; p = 100 needs the best.
 * Empty set → empty curve.
 */
export function buildCurve(scores: readonly number[]): PercentilePoint[] {
  const sorted = scores.filter((s) => Number.isFinite(s)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return [];
  const curve: PercentilePoint[] = [];
  for (let p = 0; p <= 100; p++) {
    const k = Math.ceil((p * n) / 100);
    curve.push({ percentile: p, minimumScore: k === 0 ? 0 : sorted[k - 1] });
  }
  return curve;
}

/** The highest percentile whose minimum score the score reaches (0–100 integer); 0 on an empty curve. */
export function percentileOf(score: number, curve: readonly PercentilePoint[]): number {
  let best = 0;
  for (const point of curve) if (point.minimumScore <= score && point.percentile > best) best = point.percentile;
  return best;
}
