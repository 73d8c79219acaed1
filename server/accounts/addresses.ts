// Saved addresses. Every query is scoped to the owner: another user's address is simply not found.
import type { DB } from "../db";
import { addressSchema, stateError, type AddressInput } from "#common/accounts/address";

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
  country: { value: string; name: string; id: number };
  phone: string | null;
  vat: string | null;
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

function toView(r: Row): AddressView {
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
    country: { value: r.iso2, name: r.country_name, id: r.country_id },
    phone: r.phone,
    vat: r.vat,
  };
}

export async function listAddresses(db: DB, userId: number): Promise<AddressView[]> {
  return (await baseQuery(db).where("a.user_id", "=", userId).orderBy("a.id").execute()).map(toView);
}

export async function getAddress(db: DB, userId: number, id: number): Promise<AddressView | null> {
  if (!Number.isSafeInteger(id)) return null;
  const row = await baseQuery(db).where("a.user_id", "=", userId).where("a.id", "=", id).executeTakeFirst();
  return row ? toView(row) : null;
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

export type SaveAddressResult =
  { ok: true; address: AddressView } | { ok: false; fieldErrors: Record<string, string[]> } | { ok: false; notFound: true };

/** Creates (id null) or updates one of the user's addresses after checking the rules, including states by country. */
export async function saveAddress(db: DB, userId: number, id: number | null, raw: unknown): Promise<SaveAddressResult> {
  const parsed = addressSchema.safeParse(raw);
  const fieldErrors: Record<string, string[]> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      (fieldErrors[key] ??= []).push(issue.message);
    }
    return { ok: false, fieldErrors };
  }
  const input: AddressInput = parsed.data;
  const country = await db.selectFrom("countries").select(["id", "iso2"]).where("iso2", "=", input.country).executeTakeFirst();
  if (!country) return { ok: false, fieldErrors: { country: ["account:address.errors.countryRequired"] } };
  const states = await statesOf(db, country.iso2);
  const stateErr = stateError(input.state || undefined, states);
  if (stateErr) return { ok: false, fieldErrors: { state: [stateErr] } };
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
    const updated = await db
      .updateTable("addresses")
      .set({ ...values, updated_at: new Date() })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .returning("id")
      .executeTakeFirst();
    if (!updated) return { ok: false, notFound: true };
    savedId = updated.id;
  }
  return { ok: true, address: (await getAddress(db, userId, savedId))! };
}

export async function deleteAddress(db: DB, userId: number, id: number): Promise<boolean> {
  if (!Number.isSafeInteger(id)) return false;
  const r = await db.deleteFrom("addresses").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
