// Reference data (spec 1 §3, §5): countries, currencies and exchange rates, read by every area.
// On the lowest floor (server/kernel, ADR 057): it imports no area, so any area may read it without a knot.
import { sql } from "kysely";
import type { DB } from "../db";

export interface CountryOption {
  id: number;
  iso2: string;
  name: string;
  callingCode: string;
  phoneMin: number;
  phoneMax: number;
  localization: string;
}

export interface CurrencyOption {
  isoCode: string;
  name: string;
  sign: string;
  selectable: boolean;
}

// Countries and currencies are reference data that change only with a seed or a migration, yet forms
// list them on every render: each process keeps them for a minute per database.
const REFERENCE_TTL_MS = 60_000;
const reference = new WeakMap<DB, Map<string, { at: number; value: Promise<unknown> }>>();
/** Reference data derived from these tables (a list named in one language…), kept per process like them. */
export function rememberedReference<T>(db: DB, key: string, load: () => Promise<T>): Promise<T> {
  return remembered(db, `derived:${key}`, load);
}
function remembered<T>(db: DB, key: string, load: () => Promise<T>): Promise<T> {
  let byKey = reference.get(db);
  if (!byKey) reference.set(db, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit && Date.now() - hit.at < REFERENCE_TTL_MS) return hit.value as Promise<T>;
  const value = load();
  byKey.set(key, { at: Date.now(), value });
  // A failed load is not remembered.
  value.catch(() => byKey.delete(key));
  return value;
}

export function listCountries(db: DB): Promise<CountryOption[]> {
  return remembered(db, "countries", () => loadCountries(db));
}

async function loadCountries(db: DB): Promise<CountryOption[]> {
  const rows = await db
    .selectFrom("countries")
    .select(["id", "iso2", "name", "calling_code", "phone_min", "phone_max", "localization"])
    .orderBy("name")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    iso2: r.iso2,
    name: r.name,
    callingCode: r.calling_code,
    phoneMin: r.phone_min,
    phoneMax: r.phone_max,
    localization: r.localization,
  }));
}

export function listCurrencies(db: DB): Promise<CurrencyOption[]> {
  return remembered(db, "currencies", () => loadCurrencies(db));
}

async function loadCurrencies(db: DB): Promise<CurrencyOption[]> {
  const rows = await db.selectFrom("currencies").select(["iso_code", "name", "sign", "selectable"]).orderBy("sort_order").execute();
  return rows.map((r) => ({ isoCode: r.iso_code.trim(), name: r.name, sign: r.sign, selectable: r.selectable }));
}

/** Currencies offered at registration: CNY (not selectable in general) only when the country is China, or for admins. */
export function registrationCurrencies(currencies: CurrencyOption[], countryIso2: string | undefined, isAdmin = false): CurrencyOption[] {
  return currencies.filter((c) => c.selectable || isAdmin || (c.isoCode === "CNY" && countryIso2 === "CN"));
}

/** The latest rate of `iso` per USD in effect today (decimal text, as stored), or null when none is recorded. */
export async function latestExchangeRate(db: DB, iso: string): Promise<string | null> {
  if (iso === "USD") return "1";
  const row = await db
    .selectFrom("exchange_rates")
    .select(sql<string>`rate::text`.as("rate"))
    .where("iso_code", "=", iso)
    .where("effective_on", "<=", sql<string>`current_date`)
    .orderBy("effective_on", "desc")
    .executeTakeFirst();
  return row?.rate ?? null;
}

/** Digits after the decimal point of `iso` (2 for USD, 0 for JPY), or null for an unknown currency. */
export async function currencyDecimals(db: DB, iso: string): Promise<number | null> {
  const row = await db.selectFrom("currencies").select("num_decimals").where("iso_code", "=", iso).executeTakeFirst();
  return row?.num_decimals ?? null;
}
