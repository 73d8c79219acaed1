// Brazilian tax identifiers (PAYMENTS.md "Brazil"): CPF for people, CNPJ for companies, with their real check
// digits. From July 2026 a CNPJ's first 12 characters may be letters too (each counts as its character code
// minus 48, so '0'–'9' keep their value and 'A' is 17); the two check digits stay numeric. Isomorphic: the form
// and the server check the same way.
import type { TaxId } from "./types";

export const TAX_TYPES = ["CPF", "CNPJ"] as const;
export type TaxType = (typeof TAX_TYPES)[number];

/** Digits and upper-case letters only: '123.456.789-09' → '12345678909', '12.abc.345/01de-35' → '12ABC34501DE35'. */
export function normalizeTaxNumber(input: string): string {
  return input.toUpperCase().replace(/[^0-9A-Z]/g, "");
}

/** Modulus-11 check digit of `values` with `weights` (remainder below 2 → 0, else 11 − remainder). */
function mod11(values: number[], weights: number[]): number {
  const sum = values.reduce((s, v, i) => s + v * weights[i], 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

const allEqual = (s: string) => /^(.)\1*$/.test(s);

export function isValidCpf(input: string): boolean {
  const n = normalizeTaxNumber(input);
  if (!/^\d{11}$/.test(n) || allEqual(n)) return false;
  const d = [...n].map(Number);
  const first = mod11(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[9] === first && d[10] === second;
}

const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCnpj(input: string): boolean {
  const n = normalizeTaxNumber(input);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(n) || allEqual(n)) return false;
  const v = [...n].map((c) => c.charCodeAt(0) - 48);
  const first = mod11(v.slice(0, 12), CNPJ_WEIGHTS_1);
  const second = mod11(v.slice(0, 13), CNPJ_WEIGHTS_2);
  return v[12] === first && v[13] === second;
}

export const isValidTaxId = (type: TaxType, number: string) => (type === "CPF" ? isValidCpf(number) : isValidCnpj(number));

/** The tax id if its number is valid for its type, else null. */
export function parseTaxId(type: string, number: string): TaxId | null {
  if (type !== "CPF" && type !== "CNPJ") return null;
  return isValidTaxId(type, number) ? { type, number: normalizeTaxNumber(number) } : null;
}
