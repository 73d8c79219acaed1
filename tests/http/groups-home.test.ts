// Preferred groups, /home, /rubriq and the spam banner over HTTP (issue 25 items 5–7, ADR 077): the dashboard's and
// home's group forms without JavaScript (POST → 303 → GET), the API calls with good and bad input, another user's
// id, a visitor and a cross-site request; home's flag; rubriq's pages and its external redirect keeping path and
// query; the spam banner's hide form and API; the staff console's groups page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({ WORKERS: "external" });
});
afterAll(async () => portal.stop());

const json = { "content-type": "application/json" };
const send = (c: Client, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  c.request(path, { method, headers: { ...json, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
const MESSAGE = "You have been associated with the group code you entered.";
const GENERIC = "We could not associate you with that group code.";

describe("the preferred group API", () => {
  it("joins and leaves one's own user; refuses bad input, another user, a visitor and a cross-site call", async () => {
    const ada = await portal.researcher();
    const bob = await portal.researcher();
    const joined = await send(ada.client, "POST", `/api/users/${ada.identity}/preferred-group`, { groupCode: "uni-demo" });
    expect(joined.status).toBe(200);
    expect(await joined.json()).toMatchObject({
      message: MESSAGE,
      preferredGroup: { code: "UNI-DEMO", percentageDiscount: true, discount: 10 },
    });
    expect((await (await ada.client.get("/api/account")).json()).user.preferredGroup).toMatchObject({
      code: "UNI-DEMO",
      membershipDisplayed: true,
    });

    const wrong = await send(ada.client, "POST", `/api/users/${ada.id}/preferred-group`, { groupCode: "NO-SUCH" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      error: "preferred-group-join-generic-error",
      fieldErrors: { groupCode: "preferred-group-join-generic-error" },
    });
    const empty = await send(ada.client, "POST", `/api/users/${ada.id}/preferred-group`, { groupCode: " " });
    expect(empty.status).toBe(400);
    expect((await send(ada.client, "POST", `/api/users/${ada.id}/preferred-group`, { nope: 1 })).status).toBe(400);

    expect((await send(ada.client, "POST", `/api/users/${bob.identity}/preferred-group`, { groupCode: "LAB-DEMO" })).status).toBe(403);
    expect((await send(ada.client, "DELETE", `/api/users/${bob.identity}/preferred-group`)).status).toBe(403);
    expect(
      (await send(new Client(portal.url), "POST", `/api/users/${ada.identity}/preferred-group`, { groupCode: "LAB-DEMO" })).status,
    ).toBe(401);
    const cross = await send(ada.client, "DELETE", `/api/users/${ada.identity}/preferred-group`, undefined, {
      "sec-fetch-site": "cross-site",
    });
    expect(cross.status).toBe(403);
    expect((await (await ada.client.get("/api/account")).json()).user.preferredGroup).toMatchObject({ code: "UNI-DEMO" });

    const left = await send(ada.client, "DELETE", `/api/users/${ada.identity}/preferred-group`);
    expect(left.status).toBe(200);
    expect(await left.json()).toEqual({ message: "preferred-group-leave-success", left: true });
    expect((await (await ada.client.get("/api/account")).json()).user.preferredGroup).toBeNull();
  });

  it("rate limits the joins per user: 429 with Retry-After details", async () => {
    const ada = await portal.researcher();
    let last: Response | null = null;
    for (let i = 0; i < 11; i++)
      last = await send(ada.client, "POST", `/api/users/${ada.identity}/preferred-group`, { groupCode: `WRONG-${i}` });
    expect(last!.status).toBe(429);
    expect((await last!.json()).error).toBe("too-many-attempts");
  });
});

describe("the dashboard's group widgets without JavaScript", () => {
  it("joins with the form (303 → message and widget), a wrong code is a 400 with the generic error, leaves", async () => {
    const ada = await portal.researcher();
    const page = await ada.client.get("/en/researcher");
    const html = await page.text();
    expect(html).toContain('name="groupCode"');
    const bad = await ada.client.post("/en/researcher", { intent: "join", groupCode: "NOT-A-GROUP" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(GENERIC);
    const ok = await ada.client.post("/en/researcher", { intent: "join", groupCode: "lab-demo" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/en/researcher?group=joined");
    const after = await (await ada.client.get("/en/researcher?group=joined")).text();
    expect(after).toContain(MESSAGE);
    expect(after).toContain("LAB-DEMO");
    expect(after).toContain("$25");
    const left = await ada.client.post("/en/researcher", { intent: "leave" });
    expect(left.status).toBe(303);
    expect(left.headers.get("location")).toBe("/en/researcher?group=left");
    expect(await (await ada.client.get("/en/researcher?group=left")).text()).toContain("You have left the group.");
  });

  it("hides the membership widget for a free-trial group; refuses a cross-site POST; a visitor signs in", async () => {
    const ada = await portal.researcher();
    expect((await ada.client.post("/en/researcher", { intent: "join", groupCode: "CURIE-FREE-TRIAL" })).status).toBe(303);
    const html = await (await ada.client.get("/en/researcher")).text();
    expect(html).not.toContain("group-widget-title");
    expect(html).not.toContain('name="groupCode"');
    const cross = await ada.client.request("/en/researcher", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "intent=leave",
    });
    expect(cross.status).toBe(403);
    expect((await (await ada.client.get("/api/account")).json()).user.preferredGroup).toMatchObject({ code: "CURIE-FREE-TRIAL" });
    const visitor = await new Client(portal.url).post("/en/researcher", { intent: "join", groupCode: "UNI-DEMO" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/en\/login\?redirect=/);
  });
});

describe("/home", () => {
  it("goes to /researcher with curie_is_launched off; with it on, welcomes and lists, and its group form works", async () => {
    const ada = await portal.researcher({ firstName: "Ada", lastName: "Lovelace" });
    const off = await ada.client.get("/en/home");
    expect(off.status).toBe(303);
    expect(off.headers.get("location")).toBe("/en/researcher");
    await portal.ctx.config.setFlag("curie_is_launched", true);
    try {
      const page = await ada.client.get("/cn/home");
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Ada Lovelace");
      expect(html).toContain('href="/cn/rubriq"');
      expect(html).toContain('href="/cn/researcher"');
      expect(html).not.toMatch(/http-equiv="refresh"/);
      const joined = await ada.client.post("/en/home", { intent: "join", groupCode: "UNI-DEMO" });
      expect(joined.status).toBe(303);
      expect(joined.headers.get("location")).toBe("/en/home?group=joined");
      expect(await (await ada.client.get("/en/home?group=joined")).text()).toContain(MESSAGE);
      expect((await ada.client.post("/en/home", { intent: "other" })).status).toBe(400);
      expect((await ada.client.get("/en/home/anything")).status).toBe(404);
      const visitor = await new Client(portal.url).get("/en/home");
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe("/en/login?redirect=%2Fen%2Fhome");
    } finally {
      await portal.ctx.config.setFlag("curie_is_launched", false);
    }
  });
});

describe("recent documents", () => {
  it("lists a processing digital edit on /home and /rubriq, and /home refreshes itself while it processes", async () => {
    const ada = await portal.researcher();
    await portal.ctx.db
      .insertInto("digital_user_state")
      .values({ user_id: ada.id, editing_trial: true })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ editing_trial: true }))
      .execute();
    const form = new FormData();
    form.append("digitalEditFiles", new Blob([new Uint8Array(await makeDocx("Teh results was clear."))]), "home-draft.docx");
    form.append("styleOfEnglish", "British English");
    expect((await ada.client.request("/en/researcher/digital-editing", { method: "POST", body: form })).status).toBe(303);
    await portal.ctx.config.setFlag("curie_is_launched", true);
    try {
      const home = await (await ada.client.get("/en/home")).text();
      expect(home).toContain("home-draft.docx");
      expect(home).toMatch(/<noscript><meta http-equiv="refresh" content="15"\/?><\/noscript>/);
      const rubriq = await (await ada.client.get("/en/rubriq")).text();
      expect(rubriq).toContain("home-draft.docx");
      expect(rubriq).toContain("/en/researcher/digital-editing/details/");
      await portal.ctx.db.updateTable("digital_edits").set({ status: "completed" }).where("user_id", "=", ada.id).execute();
      expect(await (await ada.client.get("/en/home")).text()).not.toMatch(/http-equiv="refresh"/);
    } finally {
      await portal.ctx.config.setFlag("curie_is_launched", false);
    }
  });
});

describe("/rubriq", () => {
  it("shows the overview, sends translation and plan to the digital pages, 404 elsewhere", async () => {
    const ada = await portal.researcher();
    const overview = await ada.client.get("/en/rubriq");
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain("Your documents");
    const translation = await ada.client.get("/en/rubriq/translation");
    expect([translation.status, translation.headers.get("location")]).toEqual([303, "/en/researcher/digital-translations"]);
    const plan = await ada.client.get("/en/rubriq/plan/subscribe");
    expect([plan.status, plan.headers.get("location")]).toEqual([303, "/en/researcher/digital-editing/subscribe"]);
    expect((await ada.client.get("/en/rubriq/nothing/here")).status).toBe(404);
    // /curie/* goes to the same path under /rubriq (flag curie_to_rubriq_redirect, on by default).
    const curie = await ada.client.get("/en/curie/plan/subscribe?x=1");
    expect(curie.headers.get("location")).toBe("/en/rubriq/plan/subscribe?x=1");
  });

  it("on the China localisation, plans are sold only with rubriq_china_cart_purchase on", async () => {
    const li = await portal.researcher({ country: "CN", currency: "CNY", countryCode: "CN", phoneNumber: "13800138000" });
    const row = await portal.ctx.db.selectFrom("users").select("localization").where("id", "=", li.id).executeTakeFirstOrThrow();
    expect(row.localization).toBe("CN");
    const page = await li.client.get("/cn/rubriq/plan/subscribe");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("目前在中国暂时无法通过本网站购买订阅方案");
    expect(html).toContain('href="/cn/chinese-digital-trial"');
    await portal.ctx.config.setFlag("rubriq_china_cart_purchase", true);
    try {
      const r = await li.client.get("/cn/rubriq/plan/subscribe");
      expect([r.status, r.headers.get("location")]).toEqual([303, "/cn/researcher/digital-editing/subscribe"]);
    } finally {
      await portal.ctx.config.setFlag("rubriq_china_cart_purchase", false);
    }
  });

  it("leaves for the external address keeping path and query, only when it is http(s)", async () => {
    const c = new Client(portal.url);
    await portal.ctx.config.setConfig("rubriqExternalUrl", "https://rubriq.example");
    await portal.ctx.config.setFlag("rubriq_ui_hosted_on_new_site", true);
    try {
      const r = await c.get("/en/rubriq/plan/subscribe?utm=a&b=2");
      expect(r.status).toBe(302);
      expect(r.headers.get("location")).toBe("https://rubriq.example/en/rubriq/plan/subscribe?utm=a&b=2");
      expect((await c.get("/en/rubriq/anything")).headers.get("location")).toBe("https://rubriq.example/en/rubriq/anything");
      await portal.ctx.config.setConfig("rubriqExternalUrl", "javascript:alert(1)");
      const stay = await c.get("/en/rubriq");
      expect(stay.status).toBe(302);
      expect(stay.headers.get("location")).toMatch(/^\/en\/login\?redirect=/);
    } finally {
      await portal.ctx.config.setFlag("rubriq_ui_hosted_on_new_site", false);
      await portal.ctx.config.setConfig("rubriqExternalUrl", "");
    }
  });
});

describe("the spam banner", () => {
  it("shows for an unverified address; the form hides it for good (303 back); the API answers the user", async () => {
    const ada = await portal.researcher();
    await portal.ctx.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", ada.id).execute();
    await portal.ctx.cache.del(`user:v1:${ada.id}`);
    expect(await (await ada.client.get("/en/researcher")).text()).toContain("spam-banner");
    const hidden = await ada.client.post("/en/home/spam-message", { redirect: "/en/researcher?x=1" });
    expect(hidden.status).toBe(303);
    expect(hidden.headers.get("location")).toBe("/en/researcher?x=1");
    expect(await (await ada.client.get("/en/researcher")).text()).not.toContain("spam-banner");
    const offsite = await ada.client.post("/en/home/spam-message", { redirect: "//evil.example/" });
    expect(offsite.headers.get("location")).toBe("/en/researcher");

    const bob = await portal.researcher();
    const api = await send(bob.client, "PUT", `/api/users/${bob.identity}/hide-check-spam-message`);
    expect(api.status).toBe(200);
    expect((await api.json()).user).toMatchObject({ showCheckSpamMessage: false, loggedIn: true });
    expect((await send(bob.client, "PUT", `/api/users/${ada.identity}/hide-check-spam-message`)).status).toBe(403);
    expect((await send(new Client(portal.url), "PUT", `/api/users/${ada.identity}/hide-check-spam-message`)).status).toBe(401);
    expect(
      (await send(bob.client, "PUT", `/api/users/${bob.identity}/hide-check-spam-message`, undefined, { "sec-fetch-site": "cross-site" }))
        .status,
    ).toBe(403);
    const cross = await bob.client.request("/en/home/spam-message", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "redirect=/en/researcher",
    });
    expect(cross.status).toBe(403);
  });

  it("GET /api/users/{id}/order-count answers numberOfOrders for oneself only", async () => {
    const ada = await portal.researcher();
    const bob = await portal.researcher();
    expect(await (await ada.client.get(`/api/users/${ada.id}/order-count`)).json()).toEqual({ numberOfOrders: 0 });
    expect((await ada.client.get(`/api/users/${bob.identity}/order-count`)).status).toBe(403);
    expect((await new Client(portal.url).get(`/api/users/${ada.identity}/order-count`)).status).toBe(401);
  });
});

describe("the staff console's groups", () => {
  it("creates and edits a group (POST → 303 → GET), audited; a researcher is refused", async () => {
    const staff = await portal.staff();
    const list = await staff.client.get("/en/staff/groups");
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("CURIE-FREE-TRIAL");
    const code = `HTTP-${Date.now()}`;
    const created = await staff.client.post("/en/staff/groups", {
      intent: "create",
      code,
      name: "HTTP group",
      kind: "percent",
      discount: "12.5",
      active: "on",
      membershipDisplayed: "on",
    });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe(`/en/staff/groups?created=${code}`);
    const row = await portal.ctx.db.selectFrom("preferred_groups").selectAll().where("code", "=", code).executeTakeFirstOrThrow();
    expect(Number(row.discount)).toBe(12.5);
    const bad = await staff.client.post("/en/staff/groups", { intent: "create", code, name: "", kind: "percent", discount: "0" });
    expect(bad.status).toBe(400);
    const edit = await staff.client.get(`/en/staff/groups/${row.id}`);
    expect(edit.status).toBe(200);
    const saved = await staff.client.post(`/en/staff/groups/${row.id}`, {
      intent: "update",
      name: "HTTP group",
      kind: "amount",
      discount: "30",
      greetingText: "Hello",
    });
    expect(saved.status).toBe(303);
    const after = await portal.ctx.db.selectFrom("preferred_groups").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect([Number(after.discount), after.percentage_discount, after.active, after.greeting_text]).toEqual([3000, false, false, "Hello"]);
    const audits = await portal.ctx.db
      .selectFrom("audit_log")
      .select("action")
      .where("target_type", "=", "preferred_group")
      .where("target_id", "=", String(row.id))
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(["preferred-group.create", "preferred-group.update"]);
    expect((await staff.client.get("/en/staff/groups/999999")).status).toBe(404);
    const ada = await portal.researcher();
    expect((await ada.client.get("/en/staff/groups")).status).not.toBe(200);
    expect(
      (await ada.client.post("/en/staff/groups", { intent: "create", code: "X-NOPE", name: "x", kind: "percent", discount: "5" })).status,
    ).not.toBe(303);
  });
});
