// The API twins of sign-in and registration behave as their pages do (issue 8): the same schema refuses
// the same bad input, both claim the browser's anonymous order form, and both set the same cookies
// (Secure when the request came over HTTPS).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { createResearcher, type TestUser } from "../helpers/factories";
import { fixedT } from "#server/i18n";

let portal: TestPortal;
/** An existing account: signed in with, and registered again. */
let researcher: TestUser;
beforeAll(async () => {
  // Behind a proxy that says the request was HTTPS, cookies must be Secure.
  portal = await startRelaxedPortal({ TRUST_PROXY: "loopback" });
  researcher = await createResearcher(portal.ctx);
});
afterAll(async () => portal.stop());

const HTTPS = { "x-forwarded-proto": "https" };
const t = fixedT("en", "auth");

function postJson(c: Client, path: string, body: unknown, headers: Record<string, string> = {}) {
  return c.request(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** An anonymous visitor with an order form (the wizard's first step creates it and the draft cookie). */
async function visitorWithDraft(): Promise<{ c: Client; formId: string }> {
  const c = new Client(portal.url);
  await c.get("/en/researcher/submit/new");
  expect(c.cookies.has("draft")).toBe(true);
  const form = await portal.ctx.db
    .selectFrom("order_forms")
    .select("id")
    .where("user_id", "is", null)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return { c, formId: form.id };
}

const formOwner = async (id: string) =>
  (await portal.ctx.db.selectFrom("order_forms").select("user_id").where("id", "=", id).executeTakeFirstOrThrow()).user_id;
const userId = async (email: string) =>
  (await portal.ctx.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

/** The sid and lang cookies of a response, their values left out: `{ sid: "Path=/; HttpOnly; …" }`. */
function cookieAttributes(r: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of r.headers.getSetCookie()) {
    const [pair, ...attrs] = c.split("; ");
    const name = pair.slice(0, pair.indexOf("="));
    if (name === "sid" || name === "lang") out[name] = attrs.join("; ");
  }
  return out;
}

describe("sign-in page and POST /api/auth/login", () => {
  it("refuse the same bad input with the same rule", async () => {
    for (const input of [
      { email: "not-an-email", password: "x" },
      { email: researcher.email, password: "" },
    ]) {
      const page = await new Client(portal.url).post("/en/login", input);
      const api = await postJson(new Client(portal.url), "/api/auth/login", input);
      expect(page.status).toBe(400);
      expect(api.status).toBe(400);
      const { error } = await api.json();
      // The API's code is the last segment of the translation key the page shows.
      expect(await page.text()).toContain(t(`login.errors.${error}`).replace(/'/g, "&#x27;"));
    }
    const page = await new Client(portal.url).post("/en/login", { email: researcher.email, password: "wrong" });
    const api = await postJson(new Client(portal.url), "/api/auth/login", { email: researcher.email, password: "wrong" });
    expect(await page.text()).toContain(t("login.errors.invalidCredentials"));
    expect(await api.json()).toEqual({ loggedIn: false, error: "invalid-credentials" });
    expect(page.headers.getSetCookie().some((c) => c.startsWith("sid="))).toBe(false);
    expect(api.headers.getSetCookie().some((c) => c.startsWith("sid="))).toBe(false);
  });

  it("both claim the browser's anonymous order form and set the same Secure cookies", async () => {
    const viaPage = await visitorWithDraft();
    const page = await viaPage.c.post("/en/login", { email: researcher.email, password: researcher.password }, { headers: HTTPS });
    expect(page.status).toBe(303);
    const viaApi = await visitorWithDraft();
    const api = await postJson(viaApi.c, "/api/auth/login", { email: researcher.email, password: researcher.password }, HTTPS);
    expect(api.status).toBe(200);

    expect(await formOwner(viaPage.formId)).toBe(researcher.id);
    expect(await formOwner(viaApi.formId)).toBe(researcher.id);

    const attributes = cookieAttributes(page);
    expect(attributes).toEqual({ sid: expect.stringMatching(/HttpOnly.*Secure$/), lang: expect.stringMatching(/Secure$/) });
    expect(cookieAttributes(api)).toEqual(attributes);
  });
});

describe("registration page and POST /api/auth/register", () => {
  const fields = (email: string) => ({
    email,
    password: "parity-pass-1",
    firstName: "Par",
    lastName: "Ity",
    countryCode: "US",
    phoneNumber: "2025550123",
    country: "US",
    currency: "USD",
    language: "en",
  });

  it("refuse the same bad input with the same rules", async () => {
    const bad = { ...fields("bad@example.org"), password: "short", firstName: "", phoneNumber: "12a" };
    const page = await new Client(portal.url).post("/en/register", { ...bad, intent: "register", agreeToTOS: "on" });
    const api = await postJson(new Client(portal.url), "/api/auth/register", { ...bad, agreeToTOS: true });
    expect(page.status).toBe(400);
    expect(api.status).toBe(400);
    const { fieldErrors } = await api.json();
    expect(Object.keys(fieldErrors).sort()).toEqual(["firstName", "password", "phoneNumber"]);
    const html = await page.text();
    for (const code of Object.values<string>(fieldErrors)) expect(html).toContain(t(`register.errors.${code}`));

    // A taken address: the page goes back to the e-mail stage with the message, the API answers 409.
    const takenPage = await new Client(portal.url).post("/en/register", {
      ...fields(researcher.email),
      intent: "register",
      agreeToTOS: "on",
    });
    const takenApi = await postJson(new Client(portal.url), "/api/auth/register", { ...fields(researcher.email), agreeToTOS: true });
    expect(takenPage.status).toBe(400);
    expect(await takenPage.text()).toContain(t("register.errors.email-already-exists"));
    expect(takenApi.status).toBe(409);
    expect((await takenApi.json()).fieldErrors).toEqual({ email: "email-already-exists" });
  });

  it("both claim the browser's anonymous order form and set the same Secure cookies", async () => {
    const viaPage = await visitorWithDraft();
    const page = await viaPage.c.post(
      "/en/register",
      { ...fields("parity.page@example.org"), intent: "register", agreeToTOS: "on" },
      { headers: HTTPS },
    );
    expect(page.status).toBe(303);
    const viaApi = await visitorWithDraft();
    const api = await postJson(viaApi.c, "/api/auth/register", { ...fields("parity.api@example.org"), agreeToTOS: true }, HTTPS);
    expect(api.status).toBe(201);

    expect(await formOwner(viaPage.formId)).toBe(await userId("parity.page@example.org"));
    expect(await formOwner(viaApi.formId)).toBe(await userId("parity.api@example.org"));

    const attributes = cookieAttributes(page);
    expect(attributes).toEqual({ sid: expect.stringMatching(/HttpOnly.*Secure$/), lang: expect.stringMatching(/Secure$/) });
    expect(cookieAttributes(api)).toEqual(attributes);
  });
});
