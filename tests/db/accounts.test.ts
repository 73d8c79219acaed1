import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { validatePhone, phoneMaxLength, phoneCountryFor, CHINA_PHONE_MAX } from "../../app/common/phone";
import { registerResearcher, researcherExists } from "../../server/accounts/registration";
import { listCurrencies, registrationCurrencies } from "../../server/kernel/reference";
import { addressSchema, stateAfterCountryChange, stateError } from "../../app/common/accounts/address";
import { detailsBodySchema, detailsSchema } from "../../app/common/accounts/schemas";
import { saveAddress, listAddresses, getAddress, deleteAddress } from "../../server/accounts/addresses";
import { getUserView, updateDetails, changePassword, invalidateUser, USER_CACHE_SECONDS } from "../../server/accounts/account";
import { systemScope } from "../../server/scope";
import { shellState as shellOf } from "../../server/accounts/shell";
import { createSession, readSession } from "../../server/accounts/session";
import { verifyPassword } from "../../server/accounts/password";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

/** The scope of a request made by `userId` (domain functions act for the scope's user). */
const as = (userId: number) => systemScope(t.ctx, { lang: "en", localization: "US", userId });

/** A schema's complaints per field, as the edge (parseForm, the API router) sees them. */
function schemaErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (out[String(issue.path[0] ?? "")] ??= []).push(issue.message);
  return out;
}

/** Parses with the shared address schema, then saves: what a page or the API does. */
const parsedAddress = (raw: unknown) => addressSchema.parse(raw);

const CN = { iso2: "CN", phoneMin: 11, phoneMax: 11 };
const US = { iso2: "US", phoneMin: 10, phoneMax: 10 };
const DE = { iso2: "DE", phoneMin: 6, phoneMax: 13 };

describe("phone rules (spec 1 §5)", () => {
  it("requires a phone, digits only", () => {
    expect(validatePhone("", US)).toBe("contact-number-required");
    expect(validatePhone("   ", US)).toBe("contact-number-required");
    expect(validatePhone("202-555-0123", US)).toBe("contact-number-no-letters-validation");
    expect(validatePhone("20255501a3", US)).toBe("contact-number-no-letters-validation");
  });
  it("checks the length by the calling-code country; China is exactly 11", () => {
    expect(validatePhone("2025550123", US)).toBeNull();
    expect(validatePhone("202555012", US)).toBe("contact-number-validation");
    expect(validatePhone("13812345678", CN)).toBeNull();
    expect(validatePhone("1381234567", CN)).toBe("contact-number-validation");
    expect(validatePhone("138123456789", CN)).toBe("contact-number-validation");
    expect(validatePhone("123456", DE)).toBeNull();
    expect(validatePhone("1234567890123", DE)).toBeNull();
    expect(validatePhone("12345678901234", DE)).toBe("contact-number-validation");
    expect(phoneMaxLength(CN)).toBe(CHINA_PHONE_MAX);
    expect(phoneMaxLength(undefined)).toBe(15);
  });

  it("answers a US researcher's +1 as the United States, a Canadian's as Canada (issue 9 §3.14)", async () => {
    const us = await createResearcher(t.ctx);
    expect((await getUserView(t.ctx, us.id))!.countryCode).toEqual({ value: "+1", isoCode: "US" });
    const ca = await createResearcher(t.ctx, { country: "CA", countryCode: "CA", phoneNumber: "4165550123" });
    expect((await getUserView(t.ctx, ca.id))!.countryCode).toEqual({ value: "+1", isoCode: "CA" });
    // A German living abroad with a +1 number: the code's main country.
    const de = await createResearcher(t.ctx, { country: "DE", countryCode: "US", currency: "EUR" });
    expect((await getUserView(t.ctx, de.id))!.countryCode.isoCode).toBe("US");
    const list = [
      { iso2: "AS", callingCode: "+1" },
      { iso2: "US", callingCode: "+1" },
      { iso2: "KZ", callingCode: "+7" },
    ];
    expect(phoneCountryFor("+1", list)?.iso2).toBe("US");
    expect(phoneCountryFor("+1", list, "AS")?.iso2).toBe("AS");
    expect(phoneCountryFor("+7", list)?.iso2).toBe("KZ");
    expect(phoneCountryFor(null, list)).toBeUndefined();
  });
});

describe("registration currencies", () => {
  it("offers CNY only for China or admins", async () => {
    const all = await listCurrencies(t.ctx.db);
    expect(registrationCurrencies(all, "US").map((c) => c.isoCode)).not.toContain("CNY");
    expect(registrationCurrencies(all, "CN").map((c) => c.isoCode)).toContain("CNY");
    expect(registrationCurrencies(all, "US", true).map((c) => c.isoCode)).toContain("CNY");
    expect(registrationCurrencies(all, "US").map((c) => c.isoCode)).toEqual(["USD", "EUR", "GBP", "JPY", "BRL"]);
  });

  it("registers a researcher with the rules enforced on the server", async () => {
    const base = {
      email: "new.person@example.org",
      password: "long-enough-1",
      firstName: "New",
      lastName: "Person",
      countryCode: "CN",
      phoneNumber: "13812345678",
      country: "CN",
      currency: "CNY",
      language: "cn",
      optinToMarketing: true,
    };
    const r = await registerResearcher(t.ctx, base, { ip: "10.9.0.1" });
    expect(r.ok).toBe(true);
    expect(await researcherExists(t.ctx.db, "NEW.person@example.org")).toBe(true);
    const again = await registerResearcher(t.ctx, base, { ip: "10.9.0.1" });
    expect(again).toEqual({ ok: false, fieldErrors: { email: "email-already-exists" } });
    const bad = await registerResearcher(
      t.ctx,
      { ...base, email: "x2@example.org", country: "US", currency: "CNY", phoneNumber: "123" },
      { ip: "10.9.0.1" },
    );
    expect(bad).toMatchObject({ ok: false, fieldErrors: { currency: "currency-not-available", phoneNumber: "contact-number-validation" } });
    const user = await t.ctx.db.selectFrom("users").selectAll().where("email", "=", base.email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ localization: "CN", phone_country_code: "+86", language: "cn", optin_to_marketing: true });
    const event = await t.ctx.db.selectFrom("analytics_events").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(event.name).toBe("signup-complete");
  });
});

describe("addresses", () => {
  let userId: number;
  let otherId: number;
  beforeAll(async () => {
    userId = (await createResearcher(t.ctx)).id;
    otherId = (await createResearcher(t.ctx)).id;
  });

  it("requires a state from the list when the country has states, free text otherwise", () => {
    const states = [{ code: "CA" }, { code: "NY" }];
    expect(stateError(undefined, states)).toBe("account:address.errors.stateRequired");
    expect(stateError("XX", states)).toBe("account:address.errors.stateRequired");
    expect(stateError("CA", states)).toBeNull();
    expect(stateError(undefined, [])).toBeNull();
    expect(stateAfterCountryChange("CA", [{ code: "SP" }])).toBeUndefined();
    expect(stateAfterCountryChange("CA", [{ code: "CA" }])).toBe("CA");
    expect(stateAfterCountryChange("Bavaria", [])).toBe("Bavaria");
  });

  it("validates with the messages of spec 2 §5", async () => {
    const r = addressSchema.safeParse({ label: "billing", country: "US" });
    expect(r.success).toBe(false);
    const errors = schemaErrors(r);
    expect(errors.name).toEqual(["account:address.errors.nameRequired"]);
    expect(errors.address1).toEqual(["account:address.errors.address1Required"]);
    expect(errors.city).toEqual(["account:address.errors.cityRequired"]);
    const long = addressSchema.safeParse({
      label: "billing",
      name: "x".repeat(51),
      address1: "a",
      city: "c",
      country: "US",
      state: "CA",
    });
    expect(schemaErrors(long).name).toEqual(["account:address.errors.nameTooLong"]);
    // The state rule needs the country's states: the domain's.
    const noState = await saveAddress(
      as(userId),
      null,
      parsedAddress({
        label: "billing",
        name: "A",
        address1: "1 Main St",
        city: "Springfield",
        country: "US",
      }),
    );
    expect(noState).toEqual({ ok: false, error: "stateRequired", fieldErrors: { state: "account:address.errors.stateRequired" } });
    const noCountry = await saveAddress(
      as(userId),
      null,
      parsedAddress({ label: "billing", name: "A", address1: "1", city: "c", country: "ZZ" }),
    );
    expect(noCountry).toEqual({ ok: false, error: "countryRequired", fieldErrors: { country: "account:address.errors.countryRequired" } });
  });

  it("are created, read, updated and deleted only by their owner", async () => {
    const created = await saveAddress(
      as(userId),
      null,
      parsedAddress({
        label: "invoice",
        name: "Ada",
        organization: "Uni",
        address1: "1 Main St",
        city: "Boston",
        state: "MA",
        zip: "02110",
        country: "US",
        vat: "US123",
      }),
    );
    expect(created.ok).toBe(true);
    const id = (created as { value: { id: number } }).value.id;
    const view = await getAddress(t.ctx.db, userId, id);
    expect(view).toMatchObject({ label: "invoice", stateName: "Massachusetts", country: { value: "US" }, vat: "US123" });
    // Another user can neither see, change nor delete it.
    expect(await getAddress(t.ctx.db, otherId, id)).toBeNull();
    expect(
      await saveAddress(as(otherId), id, parsedAddress({ label: "billing", name: "Evil", address1: "x", city: "y", country: "DE" })),
    ).toEqual({ ok: false, error: "not-found", fieldErrors: {} });
    expect(await deleteAddress(as(otherId), id)).toEqual({ ok: false, error: "not-found", fieldErrors: {} });
    const updated = await saveAddress(
      as(userId),
      id,
      parsedAddress({
        label: "billing",
        name: "Ada L",
        address1: "2 Side St",
        city: "Berlin",
        country: "DE",
        state: "Berlin",
      }),
    );
    expect(updated).toMatchObject({ ok: true, value: { label: "billing", state: "Berlin", country: { value: "DE" } } });
    expect((await listAddresses(t.ctx.db, userId)).map((a) => a.id)).toContain(id);
    expect((await deleteAddress(as(userId), id)).ok).toBe(true);
    expect(await getAddress(t.ctx.db, userId, id)).toBeNull();
  });

  it("invalidate the cached user view, which lists them", async () => {
    const before = (await getUserView(t.ctx, userId))!.addresses.length;
    const created = await saveAddress(
      as(userId),
      null,
      parsedAddress({ label: "billing", name: "A", address1: "1", city: "c", country: "DE" }),
    );
    expect((await getUserView(t.ctx, userId))!.addresses).toHaveLength(before + 1);
    expect((await deleteAddress(as(userId), (created as { value: { id: number } }).value.id)).ok).toBe(true);
    expect((await getUserView(t.ctx, userId))!.addresses).toHaveLength(before);
  });
});

describe("the user view and its cache", () => {
  it("is cached 10 minutes and invalidated on change", async () => {
    expect(USER_CACHE_SECONDS).toBe(600);
    const u = await createResearcher(t.ctx, { firstName: "Ada", lastName: "Lovelace" });
    const before = await getUserView(t.ctx, u.id);
    expect(before?.firstName).toBe("Ada");
    // A change behind the cache is not seen...
    await t.ctx.db.updateTable("users").set({ first_name: "Changed" }).where("id", "=", u.id).execute();
    expect((await getUserView(t.ctx, u.id))?.firstName).toBe("Ada");
    await invalidateUser(t.ctx, u.id);
    expect((await getUserView(t.ctx, u.id))?.firstName).toBe("Changed");
    // ...while updateDetails invalidates by itself.
    const r = await updateDetails(
      as(u.id),
      detailsBodySchema.parse({
        firstName: "Ada",
        lastName: "Lovelace",
        countryCode: "US",
        phoneNumber: "2025550123",
        country: "US",
        language: "en",
        optinToMarketing: false,
        orcid: "0000-0002-1825-0097",
      }) as Parameters<typeof updateDetails>[1],
    );
    expect(r.ok).toBe(true);
    expect((await getUserView(t.ctx, u.id))?.orcid).toBe("0000-0002-1825-0097");
    // The shared schema refuses what needs no database (the page and the API parse with it)...
    const bad = detailsSchema.safeParse({
      intent: "details",
      firstName: "",
      lastName: "L",
      countryCode: "CN",
      phoneNumber: "123",
      country: "ZZ",
      language: "xx",
      optinToMarketing: false,
      orcid: "nope",
    });
    expect(schemaErrors(bad)).toMatchObject({
      firstName: ["auth:register.errors.first-name-required"],
      language: ["auth:register.errors.language-required"],
      orcid: ["account:details.errors.orcidInvalid"],
    });
    // ...and the domain what does.
    const badForDomain = await updateDetails(as(u.id), {
      firstName: "A",
      lastName: "L",
      countryCode: "CN",
      phoneNumber: "123",
      country: "ZZ",
      language: "en",
      optinToMarketing: false,
    });
    expect(badForDomain).toMatchObject({
      ok: false,
      fieldErrors: {
        phoneNumber: "auth:register.errors.contact-number-validation",
        country: "auth:register.errors.country-required",
      },
    });
  });

  it("parses the details with one schema: names at most 100, ORCID and e-mail checked, empty means none", () => {
    const base = { firstName: "Ada", lastName: "L", countryCode: "US", phoneNumber: "2025550123", country: "US" };
    expect(schemaErrors(detailsBodySchema.safeParse({ ...base, firstName: "x".repeat(101) })).firstName).toEqual([
      "auth:register.errors.name-too-long",
    ]);
    expect(schemaErrors(detailsBodySchema.safeParse({ ...base, secondaryEmail: "not-mail" })).secondaryEmail).toEqual([
      "auth:login.errors.emailAddressInvalidFormat",
    ]);
    const empty = detailsBodySchema.parse({ ...base, orcid: "", secondaryEmail: "", countryCode: { value: "+1", isoCode: "US" } });
    expect(empty).toMatchObject({ orcid: "", secondaryEmail: "", countryCode: "US", optinToMarketing: false });
    expect(detailsBodySchema.parse({ ...base, optinToMarketing: "yes" }).optinToMarketing).toBe(false);
  });

  it("changing the password signs out every other session", async () => {
    const u = await createResearcher(t.ctx);
    const other = await createSession(t.ctx.db, u.id);
    expect(await changePassword(as(u.id), { currentPassword: "wrong", newPassword: "another-pass" })).toEqual({
      ok: false,
      error: "currentWrong",
      fieldErrors: { currentPassword: "account:password.errors.currentWrong" },
    });
    const r = await changePassword(as(u.id), { currentPassword: u.password, newPassword: "another-pass" });
    expect(r.ok).toBe(true);
    expect(await readSession(t.ctx.db, other)).toBeNull();
    expect(await readSession(t.ctx.db, (r as { value: { token: string } }).value.token)).not.toBeNull();
    const hash = (await t.ctx.db.selectFrom("users").select("password_hash").where("id", "=", u.id).executeTakeFirstOrThrow())
      .password_hash;
    expect(await verifyPassword(hash, "another-pass")).toBe(true);
  });

  it("derives the shell rules", async () => {
    const u = await createResearcher(t.ctx);
    const view = (await getUserView(t.ctx, u.id))!;
    const { localizations: unhosted } = await t.ctx.config.snapshot();
    const hosted = unhosted.map((l) => ({ ...l, secureSite: l.identity === "US" ? "www.example.org" : null }));
    const shellState = (v: typeof view, site: string) => shellOf(v, site, hosted);
    expect(shellState(view, "US")).toEqual({ banner: null, countryModal: false, redirectToAccount: false, wfoeRequired: false });
    expect(shellState(view, "CN").banner).toBe("localization-mismatch");
    // Without hosts (the default, ADR 021) there is no other site: no mismatch.
    expect(shellOf(view, "CN", unhosted).banner).toBeNull();
    expect(shellOf({ ...view, localization: "CN" }, "US", unhosted).banner).toBeNull();
    expect(shellState({ ...view, creditNotesLocked: true }, "US").banner).toBe("credit-notes-lockout");
    expect(shellState({ ...view, shouldDisplayCountryModal: true, missingFields: ["country"] }, "US")).toMatchObject({
      countryModal: true,
      redirectToAccount: false,
    });
    expect(shellState({ ...view, missingFields: ["phoneNumber"] }, "US").redirectToAccount).toBe(true);
    const wfoe = {
      ...view.wfoeMigrationStatus,
      inMigratingGroup: true,
      acceptedTermsOfService: true,
      migrated: false,
      migrationEligible: true,
    };
    expect(shellState({ ...view, wfoeMigrationStatus: wfoe }, "US").wfoeRequired).toBe(true);
    expect(shellState({ ...view, wfoeMigrationStatus: { ...wfoe, migrated: true } }, "US").wfoeRequired).toBe(false);
  });
});
