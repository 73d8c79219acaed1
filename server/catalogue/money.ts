// Exact arithmetic for prices. Amounts are integers in minor units; rates,
// multipliers and percentages arrive as decimal strings (PostgreSQL numeric) and
// are scaled to integers, so no price ever passes through a binary float. Parsing,
// writing and converting money is the one money module's (#common/money, ADR 054);
// this file keeps what only pricing needs: basis points, per-word rates, allocation.
import { divRound } from "#common/money";

/** 1.0 as basis points: multipliers and percentages are held as integers ×10,000. */
export const BP = 10_000;
/** Micro-dollars per cent: per-word rates are held in millionths of a USD. */
export const MICROS_PER_CENT = 10_000;

/** amount × bp / 10,000, rounded (multipliers, percentages). */
export function applyBp(amount: number, bp: number): number {
  return Number(divRound(BigInt(amount) * BigInt(bp), BigInt(BP)));
}

/** Price in USD cents of `words` at a per-word rate in micro-dollars. */
export function perWordCents(words: number, perWordMicros: number): number {
  return Number(divRound(BigInt(words) * BigInt(perWordMicros), BigInt(MICROS_PER_CENT)));
}

/**
 * Splits `total` over `weights` in proportion, in integers that add up exactly
 * (largest remainder), so per-line discounts always sum to the order's discount.
 */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => BigInt(total) * BigInt(w));
  const base = exact.map((e) => Number(e / BigInt(sum)));
  let left = total - base.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, rem: Number(e % BigInt(sum)) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    base[i] += 1;
    left -= 1;
  }
  return base;
}
