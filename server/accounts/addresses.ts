// Saved addresses. Every query is scoped to the owner: another user's address is simply not found.
import type { DB } from "../db";
import { stateError, type AddressInput } from "#common/accounts/address";
import { fail, invalid, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { actingUser, invalidateUser } from "./user-cache";
import { listCountries } from "../kernel/reference";
import { auditImpersonated } from "../kernel/audit";

export interface AddressView {
  id: number;
  label: "billing" | "invoice";
  name: string | null;
  organization: string | null;
  address1: string;
  address2: string | null;
  city: string;
  state: string | null;
  stateName: string | null;
  zip: string | null;
  /** Spec 1 §3 "country (value, states)": the country's states or provinces (empty when it has none listed). */
  country: { value: string; name: string; id: number; states: StateOption[] };
  phone: string | null;
  vat: string | null;
}

export interface StateOption {
  code: string;
  name: string;
}

function baseQuery(db: DB) {
  return db
    .selectFrom("addresses as a")
    .innerJoin("countries as c", "c.id", "a.country_id")
    .leftJoin("states as s", (j) => j.onRef("s.country_id", "=", "a.country_id").onRef("s.code", "=", "a.state"))
    .select([
      "a.id",
      "a.label",
      "a.name",
      "a.organization",
      "a.address1",
      "a.address2",
      "a.city",
      "a.state",
      "s.name as state_name",
      "a.zip",
      "c.iso2",
      "c.name as country_name",
      "c.id as country_id",
      "a.phone",
      "a.vat",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;

function toView(r: Row, states: Map<number, StateOption[]>): AddressView {
  return {
    id: r.id,
    label: r.label,
    name: r.name,
    organization: r.organization,
    address1: r.address1,
    address2: r.address2,
    city: r.city,
    state: r.state,
    stateName: r.state_name,
    zip: r.zip,
    country: { value: r.iso2, name: r.country_name, id: r.country_id, states: states.get(r.country_id) ?? [] },
    phone: r.phone,
    vat: r.vat,
  };
}

/** The states of the rows' countries, in one query, keyed by country id. */
async function statesOfCountries(db: DB, rows: Row[]): Promise<Map<number, StateOption[]>> {
  const ids = [...new Set(rows.map((r) => r.country_id))];
  const byCountry = new Map<number, StateOption[]>();
  if (!ids.length) return byCountry;
  const states = await db
    .selectFrom("states")
    .select(["country_id", "code", "name"])
    .where("country_id", "in", ids)
    .orderBy("name")
    .execute();
  for (const s of states) {
    const list = byCountry.get(s.country_id) ?? [];
    list.push({ code: s.code, name: s.name });
    byCountry.set(s.country_id, list);
  }
  return byCountry;
}

export async function listAddresses(db: DB, userId: number): Promise<AddressView[]> {
  const rows = await baseQuery(db).where("a.user_id", "=", userId).orderBy("a.id").execute();
  const states = await statesOfCountries(db, rows);
  return rows.map((r) => toView(r, states));
}

export async function getAddress(db: DB, userId: number, id: number): Promise<AddressView | null> {
  if (!Number.isSafeInteger(id)) return null;
  const row = await baseQuery(db).where("a.user_id", "=", userId).where("a.id", "=", id).executeTakeFirst();
  return row ? toView(row, await statesOfCountries(db, [row])) : null;
}

export async function statesOf(db: DB, iso2: string) {
  return db
    .selectFrom("states as s")
    .innerJoin("countries as c", "c.id", "s.country_id")
    .select(["s.code", "s.name"])
    .where("c.iso2", "=", iso2)
    .orderBy("s.name")
    .execute();
}

/**
 * Creates (id null) or updates one of the acting user's addresses (parsed with the shared schema,
 * app/common/accounts/address.ts) after the rules that need the database: the country exists and, when it
 * has states, the state is one of them. Another user's address is `not-found`.
 */
export async function saveAddress(scope: Scope, id: number | null, input: AddressInput): Promise<Result<AddressView>> {
  const { db } = scope.app;
  const userId = actingUser(scope);
  const country = await db.selectFrom("countries").select(["id", "iso2"]).where("iso2", "=", input.country).executeTakeFirst();
  if (!country) return invalid({ country: "account:address.errors.countryRequired" });
  const states = await statesOf(db, country.iso2);
  const stateErr = stateError(input.state || undefined, states);
  if (stateErr) return invalid({ state: stateErr });
  const values = {
    label: input.label,
    name: input.name,
    organization: input.organization || null,
    address1: input.address1,
    address2: input.address2 || null,
    city: input.city,
    state: input.state || null,
    zip: input.zip || null,
    country_id: country.id,
    phone: input.phone || null,
    vat: input.vat || null,
  };
  let savedId: number;
  if (id === null) {
    savedId = (
      await db
        .insertInto("addresses")
        .values({ ...values, user_id: userId })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  } else {
    if (!Number.isSafeInteger(id)) return fail("not-found");
    const updated = await db
      .updateTable("addresses")
      .set({ ...values, updated_at: new Date() })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .returning("id")
      .executeTakeFirst();
    if (!updated) return fail("not-found");
    savedId = updated.id;
  }
  await auditImpersonated(scope, "address.save", { type: "address", id: String(savedId) });
  // The user view carries the addresses.
  await invalidateUser(scope.app, userId);
  return ok((await getAddress(db, userId, savedId))!);
}

/** Deletes one of the acting user's addresses; another user's (or none) is `not-found`. */
export async function deleteAddress(scope: Scope, id: number): Promise<Result> {
  if (!Number.isSafeInteger(id)) return fail("not-found");
  const userId = actingUser(scope);
  const r = await scope.app.db.deleteFrom("addresses").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return fail("not-found");
  await auditImpersonated(scope, "address.delete", { type: "address", id: String(id) });
  await invalidateUser(scope.app, userId);
  return ok();
}

/** The acting user's saved addresses. */
export function myAddresses(scope: Scope): Promise<AddressView[]> {
  return listAddresses(scope.app.db, actingUser(scope));
}

/** One of the acting user's addresses; another user's (or none) is `not-found`. */
export async function myAddress(scope: Scope, id: number): Promise<Result<AddressView>> {
  const address = await getAddress(scope.app.db, actingUser(scope), id);
  return address ? ok(address) : fail("not-found");
}

/** The states of a country, for the address form's state list. */
export function countryStates(scope: Scope, iso2: string) {
  return statesOf(scope.app.db, iso2);
}

/**
 * What the address form shows: the address being edited (null for a new one), the countries, and every
 * country's states keyed by its ISO code. Another user's address (or none) is `not-found`.
 */
export async function addressFormPage(scope: Scope, id: number | "new") {
  const { db } = scope.app;
  const address = id === "new" ? null : await getAddress(db, actingUser(scope), id);
  if (id !== "new" && !address) return fail("not-found");
  const [countries, rows] = await Promise.all([
    listCountries(db),
    db
      .selectFrom("states as s")
      .innerJoin("countries as c", "c.id", "s.country_id")
      .select(["c.iso2", "s.code", "s.name"])
      .orderBy("s.name")
      .execute(),
  ]);
  const statesByCountry: Record<string, { code: string; name: string }[]> = {};
  for (const r of rows) (statesByCountry[r.iso2] ??= []).push({ code: r.code, name: r.name });
  return ok({ address, countries, statesByCountry });
}
