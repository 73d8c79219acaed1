import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { createResearcher, createStaff, uniqueEmail } from "../helpers/factories";
import { FOREIGN_ADDRESS } from "../helpers/api";
import { listOutbox } from "../../server/mail";
import { deliveredMail } from "../helpers/mail";
import { invalidateUser } from "../../server/accounts/account";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

/** A client signed in as `user` through the sign-in page. */
async function signedIn(user: { email: string; password: string }) {
  const c = new Client(portal.url);
  const r = await c.post("/en/login", { email: user.email, password: user.password });
  expect(r.status).toBe(303);
  return c;
}

/** A client signed in through the sign-in page as a new researcher (the factories' default one). */
async function signedInResearcher() {
  return signedIn(await createResearcher(portal.ctx));
}

/** Asks for a password reset of `email` on the Brazilian Portuguese site (so the e-mail is in Portuguese); the link's path. */
async function resetLinkInPortuguese(c: Client, email: string): Promise<string> {
  await c.post("/br/login/forgot-password", { email });
  const [mail] = deliveredMail(portal.ctx, email);
  return new URL(/https?:\/\/\S+/.exec(mail.text)![0]).pathname;
}

const registration = (email: string, extra: Record<string, string> = {}) => ({
  intent: "register",
  email,
  password: "register-pass-1",
  firstName: "Rita",
  lastName: "Levi",
  countryCode: "IT",
  phoneNumber: "3123456789",
  country: "IT",
  currency: "EUR",
  language: "es",
  agreeToTOS: "on",
  ...extra,
});

describe("two-stage registration page", () => {
  it("checks the e-mail first, then registers and signs in", async () => {
    const { email } = await createResearcher(portal.ctx);
    const c = new Client(portal.url);
    let r = await c.post("/es/register", { intent: "check-email", email });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Ya existe una cuenta con esta dirección de correo electrónico.");
    r = await c.post("/es/register?redirect=%2Fes%2Faccount", { intent: "check-email", email: "rita@example.org" });
    expect(r.status).toBe(200);
    const stage2 = await r.text();
    expect(stage2).toContain('name="password"');
    expect(stage2).toContain("rita@example.org");
    r = await c.post("/es/register?redirect=%2Fes%2Faccount", {
      ...registration("rita@example.org", { password: "short", phoneNumber: "12ab", redirect: "/es/account" }),
      agreeToTOS: "",
    });
    expect(r.status).toBe(400);
    const errors = await r.text();
    expect(errors).toContain("Su contraseña debe tener al menos 8 caracteres.");
    expect(errors).toContain("El teléfono solo puede contener dígitos.");
    expect(errors).toContain("Acepte las condiciones del servicio para continuar.");
    r = await c.post("/es/register?redirect=%2Fes%2Faccount", registration("rita@example.org", { redirect: "/es/account" }));
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/es/account");
    expect(c.cookies.has("sid")).toBe(true);
    const account = await (await c.get("/es/account")).text();
    expect(account).toContain("rita@example.org");
  });

  it("offers CNY only with China, and caps Chinese phones at 11 digits", async () => {
    const c = new Client(portal.url);
    let r = await c.post(
      "/cn/register",
      registration("wang@example.org", { countryCode: "CN", phoneNumber: "138123456789", country: "US", currency: "CNY", language: "cn" }),
    );
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("请输入与国家/地区代码相符长度的手机号码。");
    expect(html).toContain("您所在的国家/地区无法使用此货币。");
    expect(html).toContain('maxLength="11"');
    r = await c.post(
      "/cn/register",
      registration("wang@example.org", { countryCode: "CN", phoneNumber: "13812345678", country: "CN", currency: "CNY", language: "cn" }),
    );
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/cn");
  });

  it("pre-fills register/confirm/{data} and reports bad data without crashing", async () => {
    const data = Buffer.from(JSON.stringify({ email: "social@example.org", firstName: "Soo", lastName: "Cial" })).toString("base64url");
    const html = await (await fetch(`${portal.url}/en/register/confirm/${data}`)).text();
    expect(html).toContain("social@example.org");
    expect(html).toContain('value="Soo"');
    const bad = await fetch(`${portal.url}/en/register/confirm/not-base64-json!!`);
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("The sign-up link is not valid.");
  });
});

describe("reset-password page", () => {
  it("sets a new password with the e-mailed link, once", async () => {
    const staff = await createStaff(portal.ctx);
    const c = new Client(portal.url);
    const path = await resetLinkInPortuguese(c, staff.email);
    expect(path).toMatch(/^\/br\/login\/reset-password\//);
    let page = await (await c.get(path)).text();
    expect(page).toContain('name="password"');
    let r = await c.post(path, { password: "short" });
    expect(r.status).toBe(400);
    r = await c.post(path, { password: "Staff#2026!reset" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/br/researcher?passwordReset=1");
    expect(c.cookies.has("sid")).toBe(true);
    page = await (await new Client(portal.url).get(path)).text();
    expect(page).toContain("Este link de redefinição expirou ou já foi usado.");
    await signedIn({ email: staff.email, password: "Staff#2026!reset" });
  });
});

describe("account pages", () => {
  const byron = { firstName: "Ada", lastName: "Byron", countryCode: "GB", phoneNumber: "2071234567", country: "GB", language: "en" };

  it("are only for signed-in users", async () => {
    const r = await new Client(portal.url).get("/jp/account/addresses");
    expect(r.headers.get("location")).toBe("/jp/login?redirect=%2Fjp%2Faccount%2Faddresses");
  });

  it("update details and change the password without JavaScript", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await signedIn(user);
    let r = await c.post("/en/account?index", { intent: "details", ...byron, title: "Dr" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/account?saved=details");
    expect(await (await c.get("/en/account?saved=details")).text()).toContain("Your details have been saved.");
    r = await c.post("/en/account?index", {
      intent: "details",
      firstName: "",
      lastName: "Byron",
      countryCode: "GB",
      phoneNumber: "1",
      country: "GB",
      language: "en",
    });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please enter your first name.");
    const other = await signedIn(user);
    r = await c.post("/en/account?index", { intent: "password", currentPassword: user.password, newPassword: "Researcher#2027" });
    expect(r.status).toBe(303);
    // The other browser was signed out; this one continues.
    expect((await other.get("/en/account")).status).toBe(302);
    expect((await c.get("/en/account")).status).toBe(200);
  });

  it("ask an unconfirmed address to be confirmed and send the link again without JavaScript", async () => {
    const user = await createResearcher(portal.ctx);
    await portal.ctx.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", user.id).execute();
    const c = await signedIn(user);
    const page = await (await c.get("/en/account")).text();
    expect(page).toContain(`we sent a confirmation link to ${user.email}`);
    expect(page).toContain('name="intent" value="verify"');
    const r = await c.post("/en/account?index", { intent: "verify" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/account?saved=verification");
    expect(await (await c.get("/en/account?saved=verification")).text()).toContain(
      `We have sent a new confirmation link to ${user.email}.`,
    );
    expect(deliveredMail(portal.ctx, user.email).some((m) => m.text.includes("/en/verify-email/"))).toBe(true);
    // A confirmed address is not asked again.
    const confirmed = await signedInResearcher();
    expect(await (await confirmed.get("/en/account")).text()).not.toContain('value="verify"');
  });

  it("refuse the same details as the API does (one shared schema)", async () => {
    const c = await signedInResearcher();
    const details = { ...byron, orcid: "0000-0002-1825-009" };
    const page = await c.post("/en/account?index", { intent: "details", ...details });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Please enter an ORCID iD like 0000-0002-1825-0097.");
    const { identity } = (await (await c.get("/api/account")).json()).user;
    const api = await c.request(`/api/account/${identity}/update-details`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(details),
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ error: "orcidInvalid", fieldErrors: { orcid: "orcidInvalid" } });
  });

  it("add, edit and delete addresses, with states by country and no access to others' addresses", async () => {
    const c = await signedInResearcher();
    const texas = { label: "billing", name: "Ada", address1: "1 Main", city: "Austin", country: "US" };
    let r = await c.post("/en/account/addresses/new", { intent: "save", ...texas });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please choose your state.");
    // Without JavaScript, changing the country and asking for its states keeps the other values.
    r = await c.post("/en/account/addresses/new", {
      intent: "refresh-states",
      label: "billing",
      name: "Ada",
      address1: "1 Main",
      city: "Curitiba",
      country: "BR",
      state: "TX",
    });
    const refreshed = await r.text();
    expect(refreshed).toContain('value="Curitiba"');
    expect(refreshed).toContain(">Paraná</option>");
    r = await c.post("/en/account/addresses/new", {
      intent: "save",
      ...texas,
      state: "TX",
      zip: "73301",
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/account/addresses?saved=1");
    const list = await (await c.get("/en/account/addresses?saved=1")).text();
    expect(list).toContain("Texas");
    const id = /data-address-id="(\d+)"/.exec(list)![1];
    const edit = await (await c.get(`/en/account/addresses/${id}`)).text();
    expect(edit).toContain('value="Austin"');

    const intruder = new Client(portal.url);
    await intruder.post("/en/register", registration("intruder@example.org", { language: "en" }));
    expect((await intruder.get(`/en/account/addresses/${id}`)).status).toBe(404);
    expect((await intruder.post(`/en/account/addresses/${id}`, { intent: "save", ...FOREIGN_ADDRESS })).status).toBe(404);
    expect((await intruder.post("/en/account/addresses", { intent: "delete", id })).status).toBe(404);

    r = await c.post("/en/account/addresses", { intent: "delete", id });
    expect(r.headers.get("location")).toBe("/en/account/addresses?deleted=1");
    expect(await (await c.get("/en/account/addresses")).text()).not.toContain(`data-address-id="${id}"`);
  });
});

describe("staff and impersonation", () => {
  it("is closed to researchers", async () => {
    const c = await signedInResearcher();
    expect((await c.get("/en/staff")).status).toBe(403);
    expect((await c.get("/en/staff/outbox")).status).toBe(403);
  });

  it("searches, views as a researcher with a banner and audit rows, and returns", async () => {
    const staffUser = await createStaff(portal.ctx);
    const staff = await signedIn(staffUser);
    const ada = await createResearcher(portal.ctx, { email: uniqueEmail("ada"), firstName: "Ada", lastName: "Lovelace" });
    const staffToken = staff.cookies.get("sid");
    // Part of the address finds it, as "researcher@" found the demo researcher.
    const search = await (await staff.get(`/en/staff?q=${encodeURIComponent(ada.email.slice(0, ada.email.indexOf("@") + 1))}`)).text();
    expect(search).toContain(ada.email);
    expect(search).not.toContain("argon2");
    const identity = ada.identity;
    let r = await staff.post("/en/staff?index", { identity });
    expect(r.status).toBe(303);
    expect(staff.cookies.get("sid")).not.toBe(staffToken);
    const page = await (await staff.get("/en/account")).text();
    expect(page).toContain("you are viewing the portal as Ada");
    const api = await (await staff.get("/api/account")).json();
    expect(api.user.impersonatorIdentity).toBeTruthy();
    r = await staff.post("/en/staff/stop-impersonation", {});
    expect(r.headers.get("location")).toBe("/en/staff");
    expect((await staff.get("/en/staff")).status).toBe(200);
    const audit = await portal.ctx.db.selectFrom("audit_log").select(["action", "target_id"]).orderBy("id").execute();
    expect(audit.filter((a) => a.target_id === identity).map((a) => a.action)).toEqual(["impersonation.start", "impersonation.stop"]);
    // Staff accounts cannot be viewed as.
    const staffIdentity = staffUser.identity;
    expect((await staff.post("/en/staff?index", { identity: staffIdentity })).status).toBe(403);
  });

  it("reads the e-mail outbox: reset links redacted, every reading audited (issue 9 §5)", async () => {
    const staffUser = await createStaff(portal.ctx);
    const staff = await signedIn(staffUser);
    const researcher = await createResearcher(portal.ctx);
    const link = await resetLinkInPortuguese(new Client(portal.url), researcher.email);
    const token = link.split("/")[4];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const html = await (await staff.get("/en/staff/outbox")).text();
    // The reset was asked for on the Brazilian Portuguese site, so the e-mail is in Portuguese.
    expect(html).toContain("Redefina sua senha da Researcher Services");
    const [mail] = await listOutbox(portal.ctx, { to: researcher.email });
    const opened = await (await staff.get(`/en/staff/outbox/${mail.id}`)).text();
    expect(opened).toContain("[redacted]");
    expect(opened).toContain("only the recipient receives them");
    expect(opened).not.toContain(token);
    expect(opened).not.toContain("/reset-password/");
    const rows = await portal.ctx.db
      .selectFrom("audit_log")
      .select(["action", "target_type", "target_id"])
      .where("actor_user_id", "=", staffUser.id)
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { action: "outbox.list", target_type: null, target_id: null },
      { action: "outbox.read", target_type: "mail", target_id: String(mail.id) },
    ]);
  });
});

describe("shell rules", () => {
  async function userId(email: string) {
    return (await portal.ctx.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  }

  it("sends researchers in the migrating group to the migration page until they accept and are migrated", async () => {
    const id = await userId("rita@example.org");
    await portal.ctx.db.updateTable("users").set({ wfoe_in_migrating_group: true }).where("id", "=", id).execute();
    await invalidateUser(portal.ctx, id);
    const c = new Client(portal.url);
    await c.post("/en/login", { email: "rita@example.org", password: "register-pass-1" });
    let r = await c.get("/en/researcher/invoices");
    expect(r.headers.get("location")).toBe("/en/researcher/wfoe-migration-status");
    expect(await (await c.get("/en/researcher/wfoe-migration-status")).text()).toContain("I accept the updated terms");
    r = await c.post("/en/researcher/wfoe-migration-status", {});
    expect(r.status).toBe(303);
    expect(await (await c.get("/en/researcher/wfoe-migration-status")).text()).toContain("please check back later");
    // Account pages stay reachable.
    expect((await c.get("/en/account")).status).toBe(200);
    await portal.ctx.db.updateTable("users").set({ wfoe_migrated: true }).where("id", "=", id).execute();
    await invalidateUser(portal.ctx, id);
    expect((await c.get("/en/researcher/wfoe-migration-status")).headers.get("location")).toBe("/en/researcher");
    expect((await c.get("/en/researcher/invoices")).status).toBe(200);
  });

  it("asks users without a country for it with a plain form", async () => {
    const id = await userId("intruder@example.org");
    await portal.ctx.db.updateTable("users").set({ country_id: null }).where("id", "=", id).execute();
    await invalidateUser(portal.ctx, id);
    const c = new Client(portal.url);
    await c.post("/en/login", { email: "intruder@example.org", password: "register-pass-1" });
    const html = await (await c.get("/en/researcher")).text();
    expect(html).toContain('class="card country-prompt"');
    const r = await c.post("/en/account/country", { country: "PT", redirect: "/en/researcher" });
    expect(r.headers.get("location")).toBe("/en/researcher");
    expect(await (await c.get("/en/researcher")).text()).not.toContain('class="card country-prompt"');
  });

  // The localisation mismatch banner needs configured hosts: tests/http/localization-sites.test.ts.
  it("replaces the page with the credit-notes lockout banner", async () => {
    const id = await userId("rita@example.org");
    await portal.ctx.db.updateTable("users").set({ credit_notes_locked: true }).where("id", "=", id).execute();
    await invalidateUser(portal.ctx, id);
    const c = new Client(portal.url);
    await c.post("/en/login", { email: "rita@example.org", password: "register-pass-1" });
    let html = await (await c.get("/en/researcher")).text();
    expect(html).toContain("<h1>Your account is temporarily locked</h1>");
    await portal.ctx.db.updateTable("users").set({ credit_notes_locked: false }).where("id", "=", id).execute();
    await invalidateUser(portal.ctx, id);
    html = await (await c.get("/en/researcher")).text();
    expect(html).not.toContain("<h1>Your account is temporarily locked</h1>");
  });
});
