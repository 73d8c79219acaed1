// Migrations 0021 and 0022 on a database that already held values (ADR 021, ADR 022): a real localisation
// host moves into the `localizationHosts` config (development *.localhost hosts are dropped), and the seeded
// placeholder bank account gives way to the per-currency defaults while an account staff set is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import { createTestContext, type TestContext } from "../helpers/context";
import * as hosts from "../../db/migrations/0021_localization_hosts";
import * as profile from "../../db/migrations/0022_profile_fields";

let t: TestContext;
// The migrations are written against an untyped database, as kysely's migrator runs them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let db: Kysely<any>;
beforeAll(async () => {
  t = await createTestContext();
  db = t.ctx.db as never;
});
afterAll(async () => t.close());

const configValue = async (key: string) =>
  (await db.selectFrom("app_config").select("value").where("key", "=", key).executeTakeFirst())?.value as unknown;

describe("0021_localization_hosts", () => {
  it("keeps a real host as configuration and drops development hosts", async () => {
    await hosts.down(db);
    await db.updateTable("localizations").set({ secure_site: "cn.example.com" }).where("identity", "=", "CN").execute();
    await db.updateTable("localizations").set({ secure_site: "br.localhost" }).where("identity", "=", "BR").execute();
    await db.deleteFrom("app_config").where("key", "=", "localizationHosts").execute();
    await hosts.up(db);
    expect(await configValue("localizationHosts")).toEqual({ CN: "cn.example.com" });
    await t.ctx.config.invalidate();
    const cn = (await t.ctx.config.snapshot()).localizations.find((l) => l.identity === "CN");
    expect(cn?.secureSite).toBe("cn.example.com");
  });
});

describe("0022_profile_fields", () => {
  it("replaces the placeholder bank account and keeps one staff set", async () => {
    const placeholder = { beneficiary: "X", bankName: "Example Bank (set in the staff configuration)", account: "0", swift: "E" };
    await db
      .updateTable("app_config")
      .set({ value: JSON.stringify(placeholder) })
      .where("key", "=", "bankDetails")
      .execute();
    await profile.down(db);
    await profile.up(db);
    expect(await configValue("bankDetails")).toBeUndefined();
    const real = { USD: { beneficiary: "Us", bankName: "Our bank", account: "1", swift: "S" } };
    await db
      .insertInto("app_config")
      .values({ key: "bankDetails", value: JSON.stringify(real), description: "" })
      .execute();
    await profile.down(db);
    await profile.up(db);
    expect(await configValue("bankDetails")).toEqual(real);
  });
});
