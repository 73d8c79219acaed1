import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { createResearcher, createStaff } from "../helpers/factories";
import { FOREIGN_ADDRESS, sendJson as send } from "../helpers/api";
import { deliveredMail } from "../helpers/mail";

let portal: TestPortal;
const jsonHeaders = { "content-type": "application/json" };
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

async function apiLogin(c: Client, email: string, password: string) {
  const r = await c.request("/api/auth/login", { method: "POST", headers: jsonHeaders, body: JSON.stringify({ email, password }) });
  return { status: r.status, body: await r.json() };
}

describe("POST /api/auth/login", () => {
  it("signs in and returns the user and language", async () => {
    const ada = await createResearcher(portal.ctx, { firstName: "Ada", lastName: "Lovelace" });
    const c = new Client(portal.url);
    const { status, body } = await apiLogin(c, ada.email, ada.password);
    expect(status).toBe(200);
    expect(body).toMatchObject({ loggedIn: true, language: "en", user: { email: ada.email, firstName: "Ada" } });
    expect(body.user).not.toHaveProperty("password_hash");
    expect(c.cookies.has("sid")).toBe(true);
  });
  it("answers bad input and wrong credentials with an error", async () => {
    const { email } = await createResearcher(portal.ctx);
    const c = new Client(portal.url);
    expect(await apiLogin(c, "nope", "x")).toEqual({ status: 400, body: { loggedIn: false, error: "emailAddressInvalidFormat" } });
    expect(await apiLogin(c, email, "")).toEqual({ status: 400, body: { loggedIn: false, error: "password-required" } });
    expect(await apiLogin(c, email, "wrong")).toEqual({
      status: 401,
      body: { loggedIn: false, error: "invalid-credentials" },
    });
    const bad = await c.request("/api/auth/login", { method: "POST", headers: jsonHeaders, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "invalid-json" });
    expect((await c.get("/api/auth/login")).status).toBe(405);
  });
});

describe("schema failures of the sign-in bodies keep their historical shapes (invalidInput)", () => {
  it("answers { error } alone, or { loggedIn: false, error[, fieldErrors] } where the client knows that", async () => {
    const c = new Client(portal.url);
    for (const path of ["/api/auth/researcher_exists", "/api/auth/request-password-reset"]) {
      const r = await send(c, "POST", path, { email: "bad" });
      expect(r.status).toBe(400);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(await r.json()).toEqual({ error: "emailAddressInvalidFormat" });
    }
    const reset = await send(c, "POST", "/api/auth/reset-password", {});
    expect(reset.status).toBe(400);
    expect(await reset.json()).toEqual({ error: "password-too-short" });
    const login = await send(c, "POST", "/api/auth/login", { email: "researcher@example.com" });
    expect(login.status).toBe(400);
    expect(await login.json()).toEqual({ loggedIn: false, error: "password-required" });
    const register = await send(c, "POST", "/api/auth/register", { email: "bad" });
    expect(register.status).toBe(400);
    const body = await register.json();
    expect(body).toMatchObject({ loggedIn: false, error: "emailAddressInvalidFormat" });
    expect(body.fieldErrors.email).toBe("emailAddressInvalidFormat");
    // A body that is not JSON is still the router's own answer, before any schema.
    const notJson = await c.request("/api/auth/researcher_exists", { method: "POST", headers: jsonHeaders, body: "[1]" });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "invalid-json" });
  });
});

describe("registration API", () => {
  it("checks whether a researcher exists", async () => {
    const { email } = await createResearcher(portal.ctx);
    const c = new Client(portal.url);
    let r = await send(c, "POST", "/api/auth/researcher_exists", { email });
    expect(await r.json()).toEqual({ researcherExists: true, error: "email-already-exists" });
    r = await send(c, "POST", "/api/auth/researcher_exists", { email: "free@example.org" });
    expect(await r.json()).toEqual({ researcherExists: false });
    r = await send(c, "POST", "/api/auth/researcher_exists", { email: "bad" });
    expect(r.status).toBe(400);
  });

  it("registers, signs in, never echoes the password, and refuses a taken e-mail", async () => {
    const c = new Client(portal.url);
    const payload = {
      email: "api.user@example.org",
      password: "api-password-1",
      firstName: "Api",
      lastName: "User",
      countryCode: { value: "+55", isoCode: "BR" },
      phoneNumber: "11987654321",
      country: "BR",
      currency: "BRL",
      language: "br",
      agreeToTOS: true,
    };
    const r = await send(c, "POST", "/api/auth/register", payload);
    expect(r.status).toBe(201);
    const body = await r.json();
    expect(body).toMatchObject({ loggedIn: true, redirectUri: "/br/researcher", userDetails: { email: "api.user@example.org" } });
    expect(JSON.stringify(body)).not.toContain("api-password-1");
    expect((await c.get("/api/account")).status).toBe(200);
    const again = await send(new Client(portal.url), "POST", "/api/auth/register", payload);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("email-already-exists");
  });

  it("reports the validation keys of spec 1 §5", async () => {
    const r = await send(new Client(portal.url), "POST", "/api/auth/register", {
      email: "v@example.org",
      password: "short",
      firstName: "",
      lastName: "X",
      countryCode: "CN",
      phoneNumber: "12a",
      country: "US",
      currency: "CNY",
      agreeToTOS: true,
    });
    expect(r.status).toBe(400);
    const { fieldErrors } = await r.json();
    expect(fieldErrors).toMatchObject({
      password: "password-too-short",
      firstName: "first-name-required",
      phoneNumber: "contact-number-no-letters-validation",
    });
    const r2 = await send(new Client(portal.url), "POST", "/api/auth/register", {
      email: "v2@example.org",
      password: "long-enough",
      firstName: "A",
      lastName: "B",
      countryCode: "CN",
      phoneNumber: "138123456789",
      country: "US",
      currency: "CNY",
      agreeToTOS: true,
    });
    const e2 = (await r2.json()).fieldErrors;
    expect(e2.phoneNumber).toBe("contact-number-validation");
  });
});

describe("password reset API", () => {
  it("requests a reset without revealing accounts and resets with the link", async () => {
    const staff = await createStaff(portal.ctx);
    const c = new Client(portal.url);
    expect(await (await send(c, "POST", "/api/auth/request-password-reset", { email: "nobody@example.org" })).json()).toEqual({});
    expect(await (await send(c, "POST", "/api/auth/request-password-reset", { email: staff.email })).json()).toEqual({});
    // The recipient's copy (the outbox keeps the link redacted; ADR 018).
    const [mail] = deliveredMail(portal.ctx, staff.email);
    const [, token, identity] = /reset-password\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text)!;
    let r = await send(c, "POST", "/api/auth/reset-password", { oneTimeLoginHash: token, userIdentity: identity, password: "short" });
    expect(r.status).toBe(400);
    r = await send(c, "POST", "/api/auth/reset-password", { oneTimeLoginHash: token, userIdentity: identity, password: "Staff#2026!new" });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ redirectUri: "/en/researcher" });
    r = await send(c, "POST", "/api/auth/reset-password", {
      oneTimeLoginHash: token,
      userIdentity: identity,
      password: "Staff#2026!again",
    });
    expect(await r.json()).toEqual({ error: "invalid-or-expired" });
  });
});

describe("account API with object-level checks", () => {
  it("needs a session", async () => {
    const c = new Client(portal.url);
    for (const [m, p] of [
      ["GET", "/api/account"],
      ["GET", "/api/account/addresses"],
      ["PUT", "/api/account/00000000-0000-0000-0000-000000000000/update-details"],
      ["DELETE", "/api/account/addresses/1"],
      ["GET", "/api/users/x/order-count"],
    ] as const) {
      const r = await send(c, m, p, m === "PUT" ? {} : undefined);
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(await r.json()).toEqual({ error: "unauthorized" });
    }
  });

  it("reads and updates one's own details, never another user's", async () => {
    const { client: ada, email } = await portal.researcher();
    const me = (await (await ada.get("/api/account")).json()).user;
    expect(me).toMatchObject({ email, loggedIn: true, impersonatorIdentity: null });
    const staffId = (await createStaff(portal.ctx)).identity;
    const update = { firstName: "Ada", lastName: "King", countryCode: "US", phoneNumber: "2025550123", country: "US", language: "en" };
    expect((await send(ada, "PUT", `/api/account/${staffId}/update-details`, update)).status).toBe(403);
    const ok = await send(ada, "PUT", `/api/account/${me.identity}/update-details`, update);
    expect(ok.status).toBe(200);
    expect((await ok.json()).userDetails.lastName).toBe("King");
    const bad = await send(ada, "PUT", `/api/account/${me.identity}/update-details`, { ...update, phoneNumber: "12" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors.phoneNumber).toBe("contact-number-validation");
    expect(await (await ada.get(`/api/users/${me.identity}/order-count`)).json()).toEqual({ numberOfOrders: 0 });
    expect((await ada.get(`/api/users/${staffId}/order-count`)).status).toBe(403);
  });

  it("manages addresses; another user's address is a 404", async () => {
    const { client: ada } = await portal.researcher();
    const created = await send(ada, "POST", "/api/account/addresses", {
      label: "billing",
      name: "Ada",
      address1: "1 Main St",
      city: "Austin",
      state: "TX",
      country: { value: "US" },
    });
    expect(created.status).toBe(201);
    const { address } = await created.json();
    expect(address).toMatchObject({ label: "billing", state: "TX", stateName: "Texas", country: { value: "US" } });
    const invalid = await send(ada, "PUT", `/api/account/addresses/${address.id}`, {
      label: "billing",
      name: "Ada",
      address1: "1 Main St",
      city: "Austin",
      country: "US",
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).fieldErrors.state).toBe("stateRequired");

    const { client: other } = await portal.researcher({ countryCode: "DE", phoneNumber: "301234567", country: "DE", currency: "EUR" });
    expect((await other.get(`/api/account/addresses/${address.id}`)).status).toBe(404);
    expect((await send(other, "PUT", `/api/account/addresses/${address.id}`, FOREIGN_ADDRESS)).status).toBe(404);
    expect((await send(other, "DELETE", `/api/account/addresses/${address.id}`)).status).toBe(404);
    expect((await (await other.get("/api/account/addresses")).json()).addresses).toEqual([]);

    const put = await send(ada, "PUT", `/api/account/addresses/${address.id}`, {
      label: "invoice",
      name: "Ada",
      address1: "9 Elm",
      city: "Paris",
      country: "FR",
      vat: "FR12345678901",
    });
    expect((await put.json()).address).toMatchObject({ label: "invoice", country: { value: "FR" }, vat: "FR12345678901" });
    expect((await send(ada, "DELETE", `/api/account/addresses/${address.id}`)).status).toBe(200);
    expect((await ada.get(`/api/account/addresses/${address.id}`)).status).toBe(404);
  });

  it("updates the country through the snid calls, for oneself only", async () => {
    const { client: c } = await portal.researcher();
    const me = (await (await c.get("/api/account")).json()).user;
    await portal.ctx.db.updateTable("users").set({ country_id: null }).where("identity", "=", me.identity).execute();
    const { invalidateUser } = await import("../../server/accounts/account");
    const id = (await portal.ctx.db.selectFrom("users").select("id").where("identity", "=", me.identity).executeTakeFirstOrThrow()).id;
    await invalidateUser(portal.ctx, id);
    expect(await (await c.get(`/api/snid-account/country-update-status/${me.identity}`)).json()).toEqual({
      shouldDisplayCountryModal: true,
    });
    const br = await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "BR").executeTakeFirstOrThrow();
    expect((await send(c, "PUT", `/api/snid-account/update-country/${me.identity}`, { id: br.id })).status).toBe(200);
    expect(await (await c.get(`/api/snid-account/country-update-status/${me.identity}`)).json()).toEqual({
      shouldDisplayCountryModal: false,
    });
    expect((await send(c, "POST", `/api/snid-account/country-update-status/${me.identity}`, { updateStatus: "dismissed" })).status).toBe(
      200,
    );
    expect((await send(c, "POST", `/api/snid-account/country-update-status/${me.identity}`, { updateStatus: "bogus" })).status).toBe(400);
    const staffId = (await createStaff(portal.ctx)).identity;
    expect((await send(c, "PUT", `/api/snid-account/update-country/${staffId}`, { id: br.id })).status).toBe(403);
  });

  it("is served by the declared table: 405 with Allow, no-store, the shared schema's codes, 401 before the body", async () => {
    const anonymous = new Client(portal.url);
    const badJson = await anonymous.request("/api/account/x/update-details", { method: "PUT", headers: jsonHeaders, body: "{not json" });
    expect(badJson.status).toBe(401);
    const { client: ada } = await portal.researcher();
    const me = await ada.get("/api/account");
    expect(me.headers.get("cache-control")).toBe("no-store");
    const { identity } = (await me.json()).user;
    const wrongMethod = await send(ada, "POST", "/api/account");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD");
    expect(await wrongMethod.json()).toEqual({ error: "method-not-allowed" });
    const update = { firstName: "Ada", lastName: "Lovelace", countryCode: "US", phoneNumber: "2025550123", country: "US", language: "en" };
    // The page's rules: names at most 100 characters, an ORCID iD of the right form, a real secondary e-mail.
    let r = await send(ada, "PUT", `/api/account/${identity}/update-details`, { ...update, firstName: "x".repeat(101) });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: "name-too-long", fieldErrors: { firstName: "name-too-long" } });
    r = await send(ada, "PUT", `/api/account/${identity}/update-details`, { ...update, orcid: "nope", secondaryEmail: "bad" });
    expect((await r.json()).fieldErrors).toEqual({ orcid: "orcidInvalid", secondaryEmail: "emailAddressInvalidFormat" });
    // The API's own shapes: countryCode as the object it answers with, empty optional fields, language defaulted.
    r = await send(ada, "PUT", `/api/account/${identity}/update-details`, {
      ...update,
      language: undefined,
      countryCode: { value: "+1", isoCode: "US" },
      orcid: "",
      secondaryEmail: "",
    });
    expect(r.status).toBe(200);
    expect((await r.json()).userDetails).toMatchObject({
      orcid: null,
      secondaryEmail: null,
      language: "en",
      countryCode: { value: "+1" },
    });
    r = await send(ada, "POST", "/api/account/addresses", { label: "billing", country: "US" });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toMatchObject({ name: "nameRequired", address1: "address1Required", city: "cityRequired" });
    for (const body of [{}, { id: true }, { id: "ZZ" }]) {
      r = await send(ada, "PUT", `/api/snid-account/update-country/${identity}`, body);
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ error: "country-required" });
    }
    r = await send(ada, "POST", `/api/snid-account/country-update-status/${identity}`, { updateStatus: 3 });
    expect(await r.json()).toEqual({ error: "invalid-update-status" });
  });

  it("answers unknown API paths with JSON 404 and logout with a cleared cookie", async () => {
    const c = new Client(portal.url);
    const r = await c.get("/api/nothing/here");
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: "not-found" });
    const user = await createResearcher(portal.ctx);
    await apiLogin(c, user.email, user.password);
    const out = await send(c, "POST", "/api/auth/logout");
    expect(await out.json()).toEqual({ loggedIn: false });
    expect((await c.get("/api/account")).status).toBe(401);
    const gif = await fetch(`${portal.url}/api/auth/logout.gif`);
    expect(gif.headers.get("content-type")).toBe("image/gif");
    // Loaded as an image by the other localisations' sites: one Cross-Origin-Resource-Policy, cross-origin
    // (two conflicting headers, as the site-wide same-origin plus this one, make browsers block it).
    expect(gif.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });
});
