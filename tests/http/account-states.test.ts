// Issue 22 item 5, the account's part (ADR 066): the administrator's currency choice at registration, the China
// site's +86 default, address countries with their states, no "coming soon" under /researcher, and the states staff
// put a researcher in (country prompt, hidden invoices, the wfoe migration) from the staff researcher page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createInvoice, createResearcher, createStaff } from "../helpers/factories";
import { invalidateUser } from "../../server/accounts/account";
import { systemScope } from "../../server/scope";
import { offeredMethods } from "../../server/payments/offer";
import { PAYMENT_METHOD } from "../../app/common/payments/methods";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const COMING = "This part of the portal is being built and will open soon.";

/** A page's markup without its scripts (the translations a page carries name every message of its namespaces). */
async function page(c: Client, path: string): Promise<string> {
  return (await (await c.get(path)).text()).replace(/<script[\s\S]*?<\/script>/g, "");
}

async function signedIn(user: { email: string; password: string }) {
  const c = new Client(portal.url);
  const r = await c.post("/en/login", { email: user.email, password: user.password });
  expect(r.status).toBe(303);
  return c;
}

/** A staff account with the admin flag (spec 1 §6 "Admin (flag on the account configuration)"). */
async function signedInAdmin() {
  const admin = await createStaff(portal.ctx);
  await portal.ctx.db.updateTable("users").set({ is_admin: true }).where("id", "=", admin.id).execute();
  await invalidateUser(portal.ctx, admin.id);
  return { admin, client: await signedIn(admin) };
}

const selected = (html: string, name: string) =>
  new RegExp(`<select[^>]*name="${name}"[\\s\\S]*?<option[^>]*value="([A-Z]{2})"[^>]*selected`).exec(html)?.[1];

const registration = (email: string, extra: Record<string, string> = {}) => ({
  intent: "register",
  email,
  password: "register-pass-1",
  firstName: "Lu",
  lastName: "Xun",
  countryCode: "US",
  phoneNumber: "2025550123",
  country: "US",
  currency: "CNY",
  language: "en",
  agreeToTOS: "on",
  ...extra,
});

describe("the administrator's currency choice at registration (spec 1 §6)", () => {
  it("offers CNY only for China to a visitor, and refuses it otherwise", async () => {
    const c = new Client(portal.url);
    const stage2 = await (await c.post("/en/register", { intent: "check-email", email: "visitor-cny@example.org" })).text();
    expect(stage2).not.toContain('value="CNY"');
    const r = await c.post("/en/register", registration("visitor-cny@example.org"));
    expect(r.status).toBe(400);
  });

  it("lets an administrator register a researcher in any currency, staying signed in, with an audit row", async () => {
    const { admin, client } = await signedInAdmin();
    const page = await client.get("/en/register");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Register a researcher");
    const stage2 = await (await client.post("/en/register", { intent: "check-email", email: "lu.xun@example.org" })).text();
    expect(stage2).toContain('value="CNY"');
    const r = await client.post("/en/register", registration("lu.xun@example.org"));
    expect(r.status).toBe(303);
    const made = await portal.ctx.db
      .selectFrom("users")
      .select(["identity", "currency_iso"])
      .where("email", "=", "lu.xun@example.org")
      .executeTakeFirstOrThrow();
    expect(made.currency_iso.trim()).toBe("CNY");
    expect(r.headers.get("location")).toBe(`/en/staff/researchers/${made.identity}?registered=1`);
    // Still the administrator: the staff area answers, and the new researcher's page opens.
    expect((await client.get(r.headers.get("location")!)).status).toBe(200);
    const rows = await portal.ctx.db
      .selectFrom("audit_log")
      .select(["action", "target_id"])
      .where("actor_user_id", "=", admin.id)
      .execute();
    expect(rows).toContainEqual({ action: "staff.register-researcher", target_id: made.identity });
  });

  it("sends other signed-in users (staff without the flag too) home from the registration page", async () => {
    const staff = await signedIn(await createStaff(portal.ctx));
    expect((await staff.get("/en/register")).status).toBe(302);
    const researcher = await signedIn(await createResearcher(portal.ctx));
    expect((await researcher.get("/en/register")).status).toBe(302);
  });
});

describe("the phone code of a China researcher (spec 1 §3, §7)", () => {
  it("starts at +86 / China on the account page when the researcher has none, capped at 11 digits", async () => {
    const user = await createResearcher(portal.ctx, {
      country: "CN",
      countryCode: "CN",
      phoneNumber: "13800138000",
      currency: "CNY",
      language: "cn",
    });
    await portal.ctx.db.updateTable("users").set({ phone_country_code: null }).where("id", "=", user.id).execute();
    await invalidateUser(portal.ctx, user.id);
    const html = await (await (await signedIn(user)).get("/cn/account")).text();
    expect(selected(html, "countryCode")).toBe("CN");
    expect(html).toMatch(/name="phoneNumber"[^>]*maxLength="11"|maxLength="11"[^>]*name="phoneNumber"/i);
  });
});

describe("the China site's registration (spec 1 §3 'default +86 / CN')", () => {
  let china: TestPortal;
  beforeAll(async () => {
    // This portal's own address is the China localisation's site.
    china = await startRelaxedPortal({ CONFIG_LOCALIZATION_HOSTS: JSON.stringify({ CN: "127.0.0.1" }) });
  });
  afterAll(() => china?.stop());

  it("defaults the phone code to +86 / China even in English", async () => {
    const c = new Client(china.url);
    const html = await (await c.post("/en/register", { intent: "check-email", email: "cn-site@example.org" })).text();
    expect(selected(html, "countryCode")).toBe("CN");
    expect(html).toMatch(/maxLength="11"/i);
  });
});

describe("address countries carry their states (spec 1 §3 Address 'country (value, states)')", () => {
  it("answers the API's addresses with the country's states", async () => {
    const user = await portal.researcher();
    const created = await user.client.request("/api/account/addresses", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ label: "billing", name: "Ana", address1: "Rua 1", city: "Curitiba", country: "BR", state: "PR" }),
    });
    expect(created.status).toBe(201);
    const { address } = await created.json();
    expect(address.country.value).toBe("BR");
    expect(address.country.states).toContainEqual({ code: "PR", name: "Paraná" });
    const { addresses } = await (await user.client.get("/api/account/addresses")).json();
    expect(addresses[0].country.states.length).toBeGreaterThan(20);
  });
});

describe("/researcher paths no page answers (spec 2 §2)", () => {
  it("are an honest 404, never 'coming soon'", async () => {
    const c = await signedIn(await createResearcher(portal.ctx));
    for (const path of [
      "/en/researcher/index/anything",
      "/en/researcher/index/orders",
      "/en/researcher/whatever",
      "/cn/researcher/index/x/y",
    ]) {
      const r = await c.get(path);
      expect(r.status, path).toBe(404);
      expect((await r.text()).replace(/<script[\s\S]*?<\/script>/g, ""), path).not.toContain(COMING);
      if (path.startsWith("/en/")) expect(await page(c, path), path).toContain("Page not found");
    }
  });
});

describe("states staff put a researcher in, from the staff researcher page (ADR 066)", () => {
  async function setup() {
    const staffUser = await createStaff(portal.ctx);
    const staff = await signedIn(staffUser);
    const researcher = await createResearcher(portal.ctx);
    const client = await signedIn(researcher);
    const staffPage = `/en/staff/researchers/${researcher.identity}`;
    return { staffUser, staff, researcher, client, staffPage };
  }

  it("asks the researcher for their country again", async () => {
    const { staffUser, staff, researcher, client, staffPage } = await setup();
    expect(await page(client, "/en/researcher")).not.toContain("Please choose your country");
    const r = await staff.post(staffPage, { intent: "ask-country" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`${staffPage}?done=ask-country`);
    expect(await (await staff.get(r.headers.get("location")!)).text()).toContain("No country: the researcher is asked for it");
    expect(await page(client, "/en/researcher")).toContain("Please choose your country");
    const audit = await portal.ctx.db
      .selectFrom("audit_log")
      .select(["action", "target_id"])
      .where("actor_user_id", "=", staffUser.id)
      .execute();
    expect(audit).toContainEqual({ action: "staff.account.ask-country", target_id: researcher.identity });
  });

  it("hides the researcher's invoices and shows them again", async () => {
    const { staff, researcher, client, staffPage } = await setup();
    await createInvoice(portal.ctx, researcher);
    expect(await page(client, "/en/researcher/invoices")).not.toContain("You do not have any invoices");
    expect((await staff.post(staffPage, { intent: "hide-invoices", value: "on" })).status).toBe(303);
    expect(await page(client, "/en/researcher/invoices")).toContain("You do not have any invoices");
    expect((await staff.post(staffPage, { intent: "hide-invoices", value: "off" })).status).toBe(303);
    expect(await page(client, "/en/researcher/invoices")).not.toContain("You do not have any invoices");
  });

  it("puts the researcher in the migrating group: terms, then 'check back later', then migrated", async () => {
    const { staff, client, staffPage } = await setup();
    expect((await staff.post(staffPage, { intent: "wfoe-group", value: "on" })).status).toBe(303);
    let r = await client.get("/en/researcher");
    expect(r.headers.get("location")).toBe("/en/researcher/wfoe-migration-status");
    expect(await (await client.get("/en/researcher/wfoe-migration-status")).text()).toContain("I accept the updated terms");
    expect((await client.post("/en/researcher/wfoe-migration-status", {})).status).toBe(303);
    expect(await (await client.get("/en/researcher/wfoe-migration-status")).text()).toContain("please check back later");
    expect(await (await staff.get(staffPage)).text()).toContain("Terms accepted: the researcher is asked to check back later");
    expect((await staff.post(staffPage, { intent: "wfoe-migrated" })).status).toBe(303);
    r = await client.get("/en/researcher");
    expect(r.status).toBe(200);
  });

  it("is staff only, refuses unknown forms with a 400, and a GET changes nothing", async () => {
    const { client, researcher, staffPage } = await setup();
    expect((await client.get(staffPage)).status).toBe(403);
    expect((await client.post(staffPage, { intent: "hide-invoices", value: "on" })).status).toBe(403);
    const staff = await signedIn(await createStaff(portal.ctx));
    expect((await staff.post(staffPage, { intent: "hide-invoices", value: "maybe" })).status).toBe(400);
    expect((await staff.post(staffPage, { intent: "drop-tables" })).status).toBe(400);
    expect((await staff.get(`/en/staff/researchers/not-a-uuid`)).status).toBe(404);
    await staff.get(`${staffPage}?intent=hide-invoices&value=on`);
    const row = await portal.ctx.db.selectFrom("users").select("hide_invoices").where("id", "=", researcher.id).executeTakeFirstOrThrow();
    expect(row.hide_invoices).toBe(false);
  });
});

describe("the impersonator's multimedia rule (spec 1 §6)", () => {
  it("offers staff viewing as a researcher only bank transfer for a multimedia order; the researcher never sees it", async () => {
    const researcher = await createResearcher(portal.ctx);
    const staff = await createStaff(portal.ctx);
    const input = { purpose: "order" as const, total: 50000, form: { customer_goal: "multimedia", voucher_code: null } };
    const base = { lang: "en" as const, localization: "US", userId: researcher.id };
    const asStaff = await offeredMethods(systemScope(portal.ctx, { ...base, impersonatorId: staff.id }), input);
    expect(asStaff.map((m) => m.id)).toEqual([PAYMENT_METHOD.bankTransfer]);
    const own = await offeredMethods(systemScope(portal.ctx, { ...base, impersonatorId: null }), input);
    expect(own.length).toBeGreaterThan(0);
    expect(own.map((m) => m.id)).not.toContain(PAYMENT_METHOD.bankTransfer);
    // A manuscript order keeps bank transfer for the researcher.
    const manuscript = await offeredMethods(systemScope(portal.ctx, { ...base, impersonatorId: null }), {
      ...input,
      form: { customer_goal: "manuscript", voucher_code: null },
    });
    expect(manuscript.map((m) => m.id)).toContain(PAYMENT_METHOD.bankTransfer);
  });
});
