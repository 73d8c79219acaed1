// Integer fields bounded to the column they end in (issue 14, ADR 044). A number from a request reaches
// PostgreSQL as a parameter; one its column type cannot hold (2^53+1, a 40-digit integer, 1e309, 1.5 for an
// `integer`) makes PostgreSQL refuse the whole statement (22003, 22P02) and the request used to answer 500.
// Every schema with an integer field uses one of these, so the value a domain function gets always fits.
// Isomorphic (zod/mini): pages and the API share them.
import * as z from "zod/mini";

/** The largest PostgreSQL `integer` (`serial` ids, counts, quantities). */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;
/**
 * The largest amount in minor units a `bigint` money column takes from a request: JavaScript's exact
 * integers end at 2^53 − 1, and no real amount comes near (a trillion euros is 10^14 cents).
 */
export const MONEY_MINOR_MAX = Number.MAX_SAFE_INTEGER;

/** A number, or a string of an optionally signed integer (a form field, a path or query segment) as a number; anything else NaN. */
export function integerOf(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const s = value.trim();
    // At most 20 digits: longer is out of every range anyway, and Number() of a megabyte of digits is wasted work.
    return /^[+-]?\d{1,20}$/.test(s) ? Number(s) : Number.NaN;
  }
  return Number.NaN;
}

/** Whether `value` is a whole number from `min` to `max` (given as a number or a string of digits). */
export function isIntegerIn(value: unknown, min: number, max: number): boolean {
  const n = integerOf(value);
  return Number.isInteger(n) && n >= min && n <= max;
}

/** The value as a serial id (1 … INT4_MAX), or null when it is not one (a path segment that names nothing). */
export function serialIdOf(value: unknown): number | null {
  return isIntegerIn(value, 1, INT4_MAX) ? integerOf(value) : null;
}

type Message = string | { error: string } | undefined;

/** A required whole number from `min` to `max` (a number or a string of digits) as a number; `message` on any failure. */
export function integerIn(min: number, max: number, message?: Message) {
  const m = typeof message === "string" ? { error: message } : message;
  return z.pipe(
    z.transform(integerOf),
    z.number(m).check(
      z.refine((n) => Number.isInteger(n), m),
      z.gte(min, m),
      z.lte(max, m),
    ),
  );
}

/** A PostgreSQL `integer`. */
export const int32 = (message?: Message) => integerIn(INT4_MIN, INT4_MAX, message);
/** A `serial` id: 1 … 2,147,483,647. */
export const serialId = (message?: Message) => integerIn(1, INT4_MAX, message);
/** An amount in minor units for a `bigint` money column: 0 … 2^53 − 1. */
export const moneyMinor = (message?: Message) => integerIn(0, MONEY_MINOR_MAX, message);

/** A path segment that is a serial id: digits only (no sign, space or exponent), 1 … INT4_MAX. For `params` rules. */
export const serialIdParam = () => z.string().check(z.refine((s) => /^[1-9]\d{0,9}$/.test(s) && Number(s) <= INT4_MAX));

/** Absent, null or "" (an unselected select) is no value; anything else must be a serial id. */
export const optionalSerialId = (message?: Message) =>
  z.pipe(
    z.transform((v: unknown): unknown => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? undefined : v)),
    z.optional(serialId(message)),
  );

/** The same, but `null` stays null (a body's explicit "none", e.g. skipping a bundle). */
export const nullableSerialId = (message?: Message) =>
  z.pipe(
    z.transform((v: unknown): unknown => (v === undefined || (typeof v === "string" && v.trim() === "") ? undefined : v)),
    z.optional(z.nullable(serialId(message))),
  );

/** A page number of a list (`?page=`): absent or empty is page 1; anything but 1 … `max` is `message`. */
export const pageNumber = (max: number, message?: Message) =>
  z.pipe(
    z.transform((v: unknown): unknown => (v === undefined || v === null || v === "" ? 1 : v)),
    integerIn(1, max, message),
  );
