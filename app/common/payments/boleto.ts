// Boleto bancário (FEBRABAN layout, PAYMENTS.md "Brazil"): the 44-digit barcode, the 47-digit typed line
// ("linha digitável") a payer keys in at a bank, their check digits, and the Interleaved 2 of 5 bars the barcode
// is printed with. Isomorphic: the pending-payment page shows the line, the PDF draws the bars, tests check both.
//
// Barcode (44): bank (3) · currency 9 (1) · general check digit (1) · due-date factor (4) · amount in cents (10) ·
// free field (25, the bank's own: agreement, our number, agency…).
// Typed line (47): field 1 = bank, currency, free[0..5) + mod-10 digit · field 2 = free[5..15) + mod-10 digit ·
// field 3 = free[15..25) + mod-10 digit · field 4 = the general check digit · field 5 = factor + amount.

const DAY_MS = 86_400_000;
/** Day 0 of the due-date factor (FEBRABAN): factor 1000 was 2000-07-03, 9999 was 2025-02-21. */
const FACTOR_BASE = Date.UTC(1997, 9, 7);

/** Modulus 10 (weights 2, 1, 2, 1… from the right; a two-digit product counts as the sum of its digits). */
export function mod10(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, w = 2; i >= 0; i--, w = w === 2 ? 1 : 2) {
    const p = Number(digits[i]) * w;
    sum += p > 9 ? p - 9 : p;
  }
  return (10 - (sum % 10)) % 10;
}

/** Modulus 11 of the general check digit (weights 2–9 from the right; results 0, 10 and 11 become 1). */
export function mod11(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, w = 2; i >= 0; i--, w = w === 9 ? 2 : w + 1) sum += Number(digits[i]) * w;
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/**
 * The due-date factor of a date (YYYY-MM-DD): days since 1997-10-07, restarting at 1000 after 9999 (the first
 * restart was 2025-02-22).
 */
export function dueDateFactor(dueOn: string): number {
  const days = Math.round((Date.parse(`${dueOn}T00:00:00Z`) - FACTOR_BASE) / DAY_MS);
  if (days < 1000) throw new RangeError(`no factor before 2000-07-03: ${dueOn}`);
  return ((days - 1000) % 9000) + 1000;
}

export interface BoletoInput {
  bank: string;
  dueOn: string;
  /** Cents (BRL minor units). */
  amount: number;
  /** The bank's 25-digit free field. */
  freeField: string;
}

const digitsOnly = (s: string) => s.replace(/\D/g, "");

/** The 44-digit barcode. */
export function boletoBarcode({ bank, dueOn, amount, freeField }: BoletoInput): string {
  if (!/^\d{3}$/.test(bank) || !/^\d{25}$/.test(freeField)) throw new RangeError("bank is 3 digits, the free field 25");
  if (!Number.isInteger(amount) || amount < 0 || amount > 9_999_999_999) throw new RangeError("amount out of range");
  const factor = String(dueDateFactor(dueOn)).padStart(4, "0");
  const rest = `${factor}${String(amount).padStart(10, "0")}${freeField}`;
  const head = `${bank}9`;
  return `${head}${mod11(head + rest)}${rest}`;
}

/** The 47-digit typed line of a 44-digit barcode. */
export function barcodeToLine(barcode: string): string {
  const b = digitsOnly(barcode);
  if (b.length !== 44) throw new RangeError("a boleto barcode has 44 digits");
  const free = b.slice(19);
  const f1 = b.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${b[4]}${b.slice(5, 19)}`;
}

/** The 44-digit barcode a 47-digit typed line stands for. */
export function lineToBarcode(line: string): string {
  const l = digitsOnly(line);
  if (l.length !== 47) throw new RangeError("a boleto line has 47 digits");
  return `${l.slice(0, 4)}${l[32]}${l.slice(33, 47)}${l.slice(4, 9)}${l.slice(10, 20)}${l.slice(21, 31)}`;
}

/** A valid barcode: 44 digits whose general check digit holds. */
export function isValidBoletoBarcode(barcode: string): boolean {
  if (!/^\d{44}$/.test(barcode)) return false;
  return mod11(barcode.slice(0, 4) + barcode.slice(5)) === Number(barcode[4]);
}

/** A valid typed line (spaces and dots allowed): its three field digits and the general check digit hold. */
export function isValidBoletoLine(line: string): boolean {
  const l = digitsOnly(line);
  if (l.length !== 47 || /[^\d.\s]/.test(line)) return false;
  const fields: [string, number][] = [
    [l.slice(0, 9), 9],
    [l.slice(10, 20), 20],
    [l.slice(21, 31), 31],
  ];
  if (!fields.every(([f, at]) => mod10(f) === Number(l[at]))) return false;
  return isValidBoletoBarcode(lineToBarcode(l));
}

/** The line as printed: `00190.00009 01149.718601 68524.522114 6 75860000102656`. */
export function formatBoletoLine(line: string): string {
  const l = digitsOnly(line);
  return `${l.slice(0, 5)}.${l.slice(5, 10)} ${l.slice(10, 15)}.${l.slice(15, 21)} ${l.slice(21, 26)}.${l.slice(26, 32)} ${l[32]} ${l.slice(33)}`;
}

/** The due date `days` days after `from` (YYYY-MM-DD, UTC). */
export function dueOnAfter(from: Date, days: number): string {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days)).toISOString().slice(0, 10);
}

const ITF_PATTERNS = ["nnwwn", "wnnnw", "nwnnw", "wwnnn", "nnwnw", "wnwnn", "nwwnn", "nnnww", "wnnwn", "nwnwn"];

/**
 * Interleaved 2 of 5 of an even number of digits, as module widths from the first bar: bars and spaces alternate
 * (start nnnn, each pair of digits as five bars interleaved with five spaces, stop wnn). `wide` is the ratio of a
 * wide element (FEBRABAN: 2 to 3 times the narrow one).
 */
export function itfWidths(digits: string, wide = 3): number[] {
  if (!/^\d*$/.test(digits) || digits.length % 2) throw new RangeError("ITF encodes an even number of digits");
  const w = (c: string) => (c === "w" ? wide : 1);
  const out = [1, 1, 1, 1];
  for (let i = 0; i < digits.length; i += 2) {
    const bars = ITF_PATTERNS[Number(digits[i])];
    const spaces = ITF_PATTERNS[Number(digits[i + 1])];
    for (let k = 0; k < 5; k++) out.push(w(bars[k]), w(spaces[k]));
  }
  out.push(wide, 1, 1);
  return out;
}
