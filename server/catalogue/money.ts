// Exact arithmetic for prices. Amounts are integers in minor units; rates,
// multipliers and percentages arrive as decimal strings (PostgreSQL numeric) and
// are scaled to integers here, so no price ever passes through a binary float.

/** 1.0 as basis points: multipliers and percentages are held as integers ×10,000. */
export const BP = 10_000;
/** Micro-dollars per cent: per-word rates are held in millionths of a USD. */
export const MICROS_PER_CENT = 10_000;

/** Rounds numerator/denominator half away from zero (commercial rounding). */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/** An exact decimal as numerator / 10^scale. */
export interface Decimal {
  units: bigint;
  scale: number;
}

/** Parses "12.3400", "-0.5", "7" (or a number, via its shortest decimal form) exactly. */
export function parseDecimal(value: string | number): Decimal {
  let text = typeof value === "number" ? String(value) : value.trim();
  if (/e/i.test(text)) text = Number(text).toFixed(12);
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === "" && !match[3])) throw new TypeError(`not a decimal: ${String(value)}`);
  const fraction = match[3] ?? "";
  const units = BigInt(`${match[2] || "0"}${fraction}`) * (match[1] === "-" ? -1n : 1n);
  return { units, scale: fraction.length };
}

/** A decimal scaled to an integer with `digits` decimals, rounded half up ("2.5" at 4 digits → 25000). */
export function scaleDecimal(value: string | number, digits: number): number {
  const d = parseDecimal(value);
  const scaled = d.scale <= digits ? d.units * 10n ** BigInt(digits - d.scale) : divRound(d.units, 10n ** BigInt(d.scale - digits));
  return Number(scaled);
}

/** amount × bp / 10,000, rounded (multipliers, percentages). */
export function applyBp(amount: number, bp: number): number {
  return Number(divRound(BigInt(amount) * BigInt(bp), BigInt(BP)));
}

/** Price in USD cents of `words` at a per-word rate in micro-dollars. */
export function perWordCents(words: number, perWordMicros: number): number {
  return Number(divRound(BigInt(words) * BigInt(perWordMicros), BigInt(MICROS_PER_CENT)));
}

/**
 * Converts USD cents to minor units of a currency: USD × rate, rounded to the
 * currency's decimals (catalogue.md "Currencies"). `rate` is units of the
 * currency per 1 USD, as stored in exchange_rates.
 */
export function convertUsdCents(usdCents: number, rate: string, numDecimals: number): number {
  const r = parseDecimal(rate);
  // usdCents/100 × rate × 10^numDecimals = usdCents × units × 10^numDecimals / (100 × 10^scale)
  return Number(divRound(BigInt(usdCents) * r.units * 10n ** BigInt(numDecimals), 100n * 10n ** BigInt(r.scale)));
}

/**
 * Minor units of a currency as USD cents at `rate` (units of the currency per 1 USD), rounded half up: the
 * inverse of convertUsdCents, the USD base an issued invoice prints beside its own currency (ADR 052).
 */
export function usdCentsAt(amount: number, rate: string, numDecimals: number): number {
  const r = parseDecimal(rate);
  // amount / 10^numDecimals / (units / 10^scale) × 100 = amount × 100 × 10^scale / (10^numDecimals × units)
  return Number(divRound(BigInt(amount) * 100n * 10n ** BigInt(r.scale), 10n ** BigInt(numDecimals) * r.units));
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

export interface CurrencyRate {
  isoCode: string;
  numDecimals: number;
  /** Units of the currency per 1 USD (exchange_rates.rate). */
  rate: string;
}

/**
 * `amount` minor units of `from` in minor units of `to`, through USD at the two rates, rounded half up.
 * Exact: the rates are decimal strings scaled to integers, never binary floats.
 */
export function convertMinor(amount: number, from: CurrencyRate, to: CurrencyRate): number {
  if (from.isoCode === to.isoCode) return amount;
  const f = parseDecimal(from.rate);
  const t = parseDecimal(to.rate);
  // amount / 10^dF / (uF / 10^sF) × (uT / 10^sT) × 10^dT
  const numerator = BigInt(amount) * t.units * 10n ** BigInt(f.scale + to.numDecimals);
  const denominator = f.units * 10n ** BigInt(t.scale + from.numDecimals);
  return Number(divRound(numerator, denominator));
}
