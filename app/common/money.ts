// The one money module (issue 21 §5, ADR 054): major ↔ minor units, the way an amount is written, and conversion
// between currencies through USD. Every amount is an integer of minor units (cents, yen, centavos); decimals
// (typed amounts, stored rates, configured minimums) are parsed as text into integers and every division is a
// bigint one with an explicit rounding, so no amount ever passes through a binary float. Isomorphic and
// dependency-free: the server areas and the browser bundle both import it, and it imports nothing of the
// project. tests/unit/money-lint.test.ts fails on `* 10 **`, `/ 10 **`, `toFixed(` or `parseFloat(` anywhere
// else.

/** How an amount of a currency is written: its ISO code, sign and minor-unit digits (the currencies table). */
export interface CurrencyFormat {
  isoCode: string;
  sign: string;
  numDecimals: number;
}

/** A currency at a rate: units of the currency per 1 USD (exchange_rates.rate, a decimal string). */
export interface CurrencyRate {
  isoCode: string;
  numDecimals: number;
  rate: string;
}

/** US dollars, the base every rate is stated against (catalogue.md "Currencies"). */
export const USD: CurrencyFormat & CurrencyRate = { isoCode: "USD", sign: "$", numDecimals: 2, rate: "1" };

// ─── Exact decimals ─────────────────────────────────────────────────────────────────────────────────────────

/** half-away: commercial rounding, half away from zero (prices, conversions); up: away from zero (what is received covers a debt). */
export type Rounding = "half-away" | "up";

/** numerator / denominator as an integer, rounded half away from zero (or away from zero with "up"). */
export function divRound(numerator: bigint, denominator: bigint, rounding: Rounding = "half-away"): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = rounding === "up" ? (n + d - 1n) / d : (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/** An exact decimal as units / 10^scale. */
export interface Decimal {
  units: bigint;
  scale: number;
}

// Digits with an optional fraction and exponent ("12.3400", "-0.5", "7", "1e-7" as String(0.0000001) gives it).
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/** Parses a decimal string (or a number, through its shortest decimal text) exactly: no float arithmetic, even for exponents. */
export function parseDecimal(value: string | number): Decimal {
  const text = typeof value === "number" ? String(value) : value.trim();
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === "" && !m[3])) throw new TypeError(`not a decimal: ${String(value)}`);
  const fraction = m[3] ?? "";
  let units = BigInt(`${m[2] || "0"}${fraction}`) * (m[1] === "-" ? -1n : 1n);
  let scale = fraction.length - Number(m[4] ?? "0");
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units, scale };
}

/** A decimal times 10^digits as an integer, rounded half away from zero ("2.5" at 4 digits → 25000; 100 major at 2 → 10000 minor). */
export function scaleDecimal(value: string | number, digits: number): number {
  const d = parseDecimal(value);
  const scaled = d.scale <= digits ? d.units * 10n ** BigInt(digits - d.scale) : divRound(d.units, 10n ** BigInt(d.scale - digits));
  return Number(scaled);
}

/** Minor units of a whole or decimal number of major units from configuration or code (100 → 10000 at 2 decimals). */
export const minorOf = (major: number | string, numDecimals: number): number => scaleDecimal(major, numDecimals);

// ─── Parsing ────────────────────────────────────────────────────────────────────────────────────────────────

/** The longest whole part a typed amount may have: a trillion units; with 3 decimals still below 2^53. */
const WHOLE_DIGITS_MAX = 12;

/**
 * A typed or provider-sent amount in major units ("1250.5", "1250,50", " 12 ") as minor units, or null. Accepted
 * exactly what the staff, prepayment and balance forms and the providers' texts accepted: 1–12 digits,
 * optionally a "." or "," and 1 to `numDecimals` digits (none for JPY/KRW). Refused: an empty text, signs,
 * exponents ("1e3"), inner spaces, thousands separators ("1.234,56") and a fraction longer than the currency's
 * (for BRL "1.000" is ambiguous — a thousand or one real — so it is refused, never read as R$1,00). Zero is
 * refused unless `allowZero` (a provider's own statement of an amount).
 */
export function parseMajor(text: string, numDecimals: number, options: { allowZero?: boolean } = {}): number | null {
  const m = /^(\d+)(?:[.,](\d+))?$/.exec(text.trim());
  if (!m || m[1].length > WHOLE_DIGITS_MAX) return null;
  const fraction = m[2] ?? "";
  if (fraction.length > numDecimals) return null;
  const minor = BigInt(m[1]) * 10n ** BigInt(numDecimals) + BigInt(fraction.padEnd(numDecimals, "0") || "0");
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const n = Number(minor);
  return n > 0 || (options.allowZero && n === 0) ? n : null;
}

// ─── Writing ────────────────────────────────────────────────────────────────────────────────────────────────

function splitMinor(minor: number | bigint, numDecimals: number): { negative: boolean; whole: string; fraction: string } {
  if (typeof minor === "number" && !Number.isInteger(minor)) throw new TypeError("money is integer minor units");
  const n = BigInt(minor);
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(numDecimals + 1, "0");
  return {
    negative,
    whole: numDecimals > 0 ? digits.slice(0, -numDecimals) : digits,
    fraction: numDecimals > 0 ? digits.slice(-numDecimals) : "",
  };
}

/** Currencies whose sign is written with dot thousands and comma decimals (spec 2 §9: euro and real). */
const COMMA_DECIMAL_CURRENCIES = new Set(["EUR", "BRL"]);

/**
 * majorText with the decimal mark people of the currency type ("840,00" for reais, "840.00" for dollars): the
 * prefilled value of an amount input a person edits. parseMajor reads both marks back.
 */
export function majorInputText(minor: number, currency: Pick<CurrencyFormat, "isoCode" | "numDecimals">): string {
  const text = majorText(minor, currency.numDecimals);
  return COMMA_DECIMAL_CURRENCIES.has(currency.isoCode) ? text.replace(".", ",") : text;
}

/**
 * Minor units as plain major-unit text with all the currency's decimals and a dot ("12.34", "1500", "-0.05"):
 * the value of an amount input and of a provider's amount field; parseMajor reads it back.
 */
export function majorText(minor: number, numDecimals: number): string {
  const { negative, whole, fraction } = splitMinor(minor, numDecimals);
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * An amount for people (spec 2 §9): euro and real use "." for thousands and "," for decimals, the others the
 * reverse; a whole amount drops its decimals ("$1,200", "€1.200,50", "-$40.50", "¥15,000").
 */
export function formatMoney(amountMinor: number, currency: CurrencyFormat): string {
  if (!Number.isInteger(amountMinor)) throw new TypeError("formatMoney expects integer minor units");
  const { negative, whole, fraction } = splitMinor(amountMinor, currency.numDecimals);
  const commaDecimal = COMMA_DECIMAL_CURRENCIES.has(currency.isoCode);
  let text = whole.replace(/\B(?=(\d{3})+(?!\d))/g, commaDecimal ? "." : ",");
  if (/[1-9]/.test(fraction)) text += (commaDecimal ? "," : ".") + fraction;
  return `${negative ? "-" : ""}${currency.sign}${text}`;
}

/** Minor-unit digits of a currency by its ISO code (JPY 0, USD 2, BHD 3) where no currencies row is at hand; 2 when unknown. */
export function currencyDigits(currencyIso: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currencyIso }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

// ─── Conversion ─────────────────────────────────────────────────────────────────────────────────────────────

/** The same amount with `toDecimals` minor digits instead of `fromDecimals` (yen as "cents": ×100; BHD fils as cents: ÷10, rounded). */
export function rescaleMinor(amount: number, fromDecimals: number, toDecimals: number, rounding: Rounding = "half-away"): number {
  if (toDecimals >= fromDecimals) return Number(BigInt(amount) * 10n ** BigInt(toDecimals - fromDecimals));
  return Number(divRound(BigInt(amount), 10n ** BigInt(fromDecimals - toDecimals), rounding));
}

/**
 * `amount` minor units of `from` as minor units of `to`, through USD at the two rates (units per 1 USD), rounded
 * half away from zero (or up). The one conversion: to USD is `convertMinor(x, c, USD)`, from USD `convertMinor(x, USD, c)`.
 */
export function convertMinor(amount: number, from: CurrencyRate, to: CurrencyRate, rounding: Rounding = "half-away"): number {
  if (from.isoCode === to.isoCode) return amount;
  const f = parseDecimal(from.rate);
  const t = parseDecimal(to.rate);
  // amount / 10^dF / (uF / 10^sF) × (uT / 10^sT) × 10^dT
  const numerator = BigInt(amount) * t.units * 10n ** BigInt(f.scale + to.numDecimals);
  const denominator = f.units * 10n ** BigInt(t.scale + from.numDecimals);
  return Number(divRound(numerator, denominator, rounding));
}

/** Units of `to` per 1 unit of `from` at their USD rates, with `digits` decimals, rounded half away ("0.17500000"). */
export function crossRate(from: CurrencyRate, to: CurrencyRate, digits = 8): string {
  const f = parseDecimal(from.rate);
  const t = parseDecimal(to.rate);
  // (uT / 10^sT) / (uF / 10^sF) × 10^digits
  const scaled = divRound(t.units * 10n ** BigInt(f.scale + digits), f.units * 10n ** BigInt(t.scale));
  const { negative, whole, fraction } = splitMinor(scaled, digits);
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
