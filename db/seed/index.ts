// Seeds reference data (idempotent: existing rows, which staff may have
// changed, are kept) and, unless turned off, the demo accounts.
import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../types";
import { CONFIG_DEFAULTS, FEATURE_FLAGS } from "#server/config/definitions";
import { CURRENCIES, DEMO_ACCOUNTS, LANGUAGES, LOCALIZATIONS, RATES_EFFECTIVE_ON } from "./reference";
import { COUNTRIES } from "./data/countries";
import { hashPassword } from "#server/accounts/password";
import { seedCatalogue } from "./catalogue";
import { JOURNALS } from "./journals";

type DB = Kysely<Database>;

const COUNTRY_LOCALIZATION: Record<string, string> = { CN: "CN", BR: "BR" };

export async function seedReference(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("app_config")
      .values(Object.entries(CONFIG_DEFAULTS).map(([key, d]) => ({ key, value: JSON.stringify(d.value), description: d.description })))
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    await trx
      .insertInto("feature_flags")
      .values(Object.entries(FEATURE_FLAGS).map(([name, f]) => ({ name, enabled: f.enabled, description: f.description })))
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    await trx
      .insertInto("currencies")
      .values(CURRENCIES.map(({ rate: _rate, ...c }) => ({ ...c })))
      .onConflict((oc) => oc.column("iso_code").doNothing())
      .execute();
    await trx
      .insertInto("exchange_rates")
      .values(CURRENCIES.map((c) => ({ iso_code: c.iso_code, rate: c.rate, effective_on: RATES_EFFECTIVE_ON })))
      .onConflict((oc) => oc.columns(["iso_code", "effective_on"]).doNothing())
      .execute();
    await trx
      .insertInto("localizations")
      .values(
        LOCALIZATIONS.map((l) => ({ ...l, tax_types: JSON.stringify(l.tax_types), payment_methods: JSON.stringify(l.payment_methods) })),
      )
      .onConflict((oc) => oc.column("identity").doNothing())
      .execute();
    await trx
      .insertInto("languages")
      .values(LANGUAGES.map((l, i) => ({ ...l, manuscript_language: true, sort_order: i })))
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    await trx
      .insertInto("countries")
      .values(
        COUNTRIES.map((c) => ({
          iso2: c.iso2,
          iso3: c.iso3,
          name: c.name,
          calling_code: c.callingCode,
          phone_min: c.phoneMin,
          phone_max: c.phoneMax,
          currency_iso: c.currency,
          localization: COUNTRY_LOCALIZATION[c.iso2] ?? "US",
        })),
      )
      .onConflict((oc) => oc.column("iso2").doNothing())
      .execute();
    const ids = new Map((await trx.selectFrom("countries").select(["id", "iso2"]).execute()).map((r) => [r.iso2, r.id]));
    const states = COUNTRIES.flatMap((c) => (c.states ?? []).map((s) => ({ country_id: ids.get(c.iso2)!, code: s.code, name: s.name })));
    if (states.length) {
      await trx
        .insertInto("states")
        .values(states)
        .onConflict((oc) => oc.columns(["country_id", "code"]).doNothing())
        .execute();
    }
  });
  await seedCatalogue(db);
  await db
    .insertInto("journals")
    .values(JOURNALS)
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
}

export interface SeededAccount {
  role: "researcher" | "staff";
  email: string;
  password: string;
}

export async function seedDemoAccounts(db: DB): Promise<SeededAccount[]> {
  const us = await db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirst();
  const out: SeededAccount[] = [];
  for (const role of ["researcher", "staff"] as const) {
    const account = DEMO_ACCOUNTS[role];
    const existing = await db
      .selectFrom("users")
      .select("id")
      .where(sql`lower(email)`, "=", account.email.toLowerCase())
      .executeTakeFirst();
    if (!existing) {
      await db
        .insertInto("users")
        .values({
          identity: randomUUID(),
          email: account.email,
          password_hash: await hashPassword(account.password),
          first_name: account.firstName,
          last_name: account.lastName,
          country_id: us?.id ?? null,
          phone_country_code: "+1",
          phone_number: "2025550123",
          currency_iso: "USD",
          language: "en",
          localization: "US",
          is_staff: role === "staff",
          // Demo accounts are ours: their addresses count as confirmed (ADR 026).
          email_verified_at: new Date(),
        })
        .execute();
    }
    out.push({ role, email: account.email, password: account.password });
  }
  return out;
}
