import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestContext, type TestContext } from "../helpers/context";
import { seedReference } from "../../db/seed";
import { verifyPassword } from "../../server/accounts/password";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("seed data", () => {
  it("has every country with calling codes and states for the countries that need them", async () => {
    const countries = await t.ctx.db.selectFrom("countries").selectAll().execute();
    expect(countries.length).toBeGreaterThanOrEqual(240);
    const cn = countries.find((c) => c.iso2 === "CN")!;
    expect(cn).toMatchObject({ calling_code: "+86", phone_max: 11, localization: "CN" });
    expect(countries.find((c) => c.iso2 === "BR")!.localization).toBe("BR");
    const states = await t.ctx.db
      .selectFrom("states")
      .innerJoin("countries", "countries.id", "states.country_id")
      .select(["countries.iso2", sql<number>`count(*)::int`.as("n")])
      .groupBy("countries.iso2")
      .execute();
    const byCountry = Object.fromEntries(states.map((s) => [s.iso2, s.n]));
    expect(byCountry.US).toBeGreaterThanOrEqual(51);
    expect(byCountry.BR).toBe(27);
    expect(byCountry.CN).toBeGreaterThanOrEqual(31);
    expect(byCountry.CA).toBe(13);
  });

  it("has currencies with dated USD-based rates; CNY is not selectable", async () => {
    const rows = await t.ctx.db
      .selectFrom("currencies as c")
      .innerJoin("exchange_rates as r", "r.iso_code", "c.iso_code")
      .select(["c.iso_code", "c.num_decimals", "c.selectable", "r.rate", "r.effective_on"])
      .execute();
    const usd = rows.find((r) => r.iso_code.trim() === "USD")!;
    expect(Number(usd.rate)).toBe(1);
    expect(usd.num_decimals).toBe(2);
    expect(rows.find((r) => r.iso_code.trim() === "JPY")!.num_decimals).toBe(0);
    expect(rows.find((r) => r.iso_code.trim() === "CNY")!.selectable).toBe(false);
    expect(rows.every((r) => r.effective_on)).toBe(true);
  });

  it("numbers manuscript languages with English as 1", async () => {
    const en = await t.ctx.db.selectFrom("languages").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
    expect(en.code).toBe("en");
  });

  it("creates demo researcher and staff accounts with argon2id hashes", async () => {
    const users = await t.ctx.db.selectFrom("users").select(["email", "is_staff", "password_hash"]).orderBy("email").execute();
    expect(users.map((u) => [u.email, u.is_staff])).toEqual([
      ["researcher@example.com", false],
      ["staff@example.com", true],
    ]);
    expect(users[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(users[0].password_hash, "Researcher#2026")).toBe(true);
    expect(await verifyPassword(users[0].password_hash, "wrong")).toBe(false);
  });

  it("is idempotent and keeps values staff changed", async () => {
    await t.ctx.db.updateTable("feature_flags").set({ enabled: true }).where("name", "=", "curie_is_launched").execute();
    await seedReference(t.ctx.db);
    const flag = await t.ctx.db
      .selectFrom("feature_flags")
      .select("enabled")
      .where("name", "=", "curie_is_launched")
      .executeTakeFirstOrThrow();
    expect(flag.enabled).toBe(true);
    const { n } = await t.ctx.db
      .selectFrom("countries")
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBeGreaterThanOrEqual(240);
  });
});
