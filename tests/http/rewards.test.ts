// Rewards and promotions over HTTP (issue 25 items 1–2): every endpoint with good input, bad input, another user's
// ids and a visitor; the pages without JavaScript (the rewards page only with hasRewards, the coupons page's used
// codes behind a plain link, the thank-you view's rewards block); the staff promotions console (POST → 303 → GET,
// staff only, cross-site POSTs refused).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createInvoice, payInFull } from "../helpers/factories";
import { changePoints } from "#server/rewards";

let portal: TestPortal;
let staff: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  staff = await portal.staff();
});
afterAll(async () => portal.stop());

async function expect303(r: Response, to: RegExp) {
  expect(r.status, await r.clone().text()).toBe(303);
  expect(r.headers.get("location")).toMatch(to);
}

/** A researcher with one paid order (its points in). */
async function paidResearcher() {
  const user = await portal.researcher();
  const { order } = await createInvoice(portal.ctx, user);
  const row = await portal.ctx.db.selectFrom("orders").select("id").where("external_id", "=", order.externalId).executeTakeFirstOrThrow();
  await payInFull(portal.ctx, { userId: staff.id }, row.id);
  return { user, externalId: order.externalId };
}

describe("the rewards API", () => {
  it("answers the levels, the loyalty, the history and an order's points to their owner", async () => {
    const { user, externalId } = await paidResearcher();
    const c = user.client;
    const levels = await (await c.get("/api/loyalty/levels/load")).json();
    expect(levels.loyaltyLevels.map((l: { identity: string }) => l.identity)).toEqual([
      "level0",
      "level1",
      "level2",
      "level3",
      "level4",
      "level5",
      "level6",
    ]);
    expect(levels.loyaltyLevels[1]).toMatchObject({ name: "Bronze", tier: "welcome", minimumPointsNeeded: 200, range: 800 });

    const loyalty = await (await c.get("/api/loyalty/load")).json();
    expect(loyalty).toMatchObject({ hasRewards: true, loyaltyLevel: { identity: "level0" }, progress: { next: "level1" } });
    expect(loyalty.totalRewardPoints).toBeGreaterThan(0);
    expect(loyalty.earnedPromotionalCodeBenefits).toEqual([]);

    const history = await (await c.get("/api/reward/history/load?page=1")).json();
    expect(history.rewardHistory).toEqual([
      expect.objectContaining({ key: "order-paid", name: "Order paid", points: loyalty.totalRewardPoints, externalId }),
    ]);
    expect(history.pagination).toEqual({ page: 1, pageSize: 10, total: 1, pages: 1 });
    expect((await c.get("/api/reward/history/load?page=x")).status).toBe(400);
    expect((await c.get("/api/reward/history/load?page=0")).status).toBe(400);

    const mine = await c.get(`/api/users/${user.identity}/reward-points?externalId=${externalId}`);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ updated: true, totalRewardPoints: loyalty.totalRewardPoints });
    expect((await c.get(`/api/users/${user.id}/reward-points?externalId=${externalId}`)).status).toBe(200);
    expect((await c.get(`/api/users/${user.identity}/reward-points`)).status).toBe(400);
    expect((await c.get(`/api/users/${user.identity}/reward-points?externalId=%3Cx%3E`)).status).toBe(400);

    // Another user: their {id} is a 403; the owner's order asked through their own id is a 404.
    const other = await portal.researcher();
    expect((await other.client.get(`/api/users/${user.identity}/reward-points?externalId=${externalId}`)).status).toBe(403);
    expect((await other.client.get(`/api/users/${other.identity}/reward-points?externalId=${externalId}`)).status).toBe(404);
    expect((await (await other.client.get("/api/reward/history/load")).json()).rewardHistory).toEqual([]);

    // A visitor: 401 everywhere.
    const visitor = new Client(portal.url);
    for (const path of [
      "/api/loyalty/levels/load",
      "/api/loyalty/load",
      "/api/reward/history/load",
      `/api/users/${user.identity}/reward-points?externalId=${externalId}`,
    ])
      expect((await visitor.get(path)).status, path).toBe(401);
  });
});

describe("the rewards pages without JavaScript", () => {
  it("shows the rewards page with the points and history, 10 a page; without rewards it is /researcher", async () => {
    const { user, externalId } = await paidResearcher();
    for (let i = 0; i < 11; i++)
      await changePoints(portal.ctx.db, { userId: user.id, points: 1, name: "staff-adjustment", sourceKey: `http:${user.id}:${i}` });
    let r = await user.client.get("/en/researcher/rewards");
    expect(r.status).toBe(200);
    let html = await r.text();
    expect(html).toContain("Reward points history");
    expect(html).toContain("Tiers at a glance");
    expect(html).toContain(`href="/en/referral-rewards"`);
    expect(html).toContain(`href="/en/testimonials/submit"`);
    expect(html).toContain(`href="/en/researcher/rewards?page=2"`);
    expect(html).not.toContain(externalId);
    r = await user.client.get("/en/researcher/rewards?page=2");
    html = await r.text();
    expect(html).toContain(externalId);
    expect(html).toContain("Page 2 of 2");

    // The dashboard's widget links to it.
    html = await (await user.client.get("/en/researcher")).text();
    expect(html).toContain("rewards-widget");
    expect(html).toContain(`href="/en/researcher/rewards"`);

    // /researcher/aje-plus leads there; without rewards, the page and the widget are gone.
    await expect303Like(await user.client.get("/en/researcher/aje-plus"), /\/en\/researcher\/rewards$/);
    await portal.ctx.db.updateTable("users").set({ has_rewards: false }).where("id", "=", user.id).execute();
    await expect303(await user.client.get("/en/researcher/rewards"), /^\/en\/researcher$/);
    html = await (await user.client.get("/en/researcher")).text();
    expect(html).not.toContain("rewards-widget");
    const visitor = new Client(portal.url);
    const v = await visitor.get("/en/researcher/rewards");
    expect([302, 303]).toContain(v.status);
    expect(v.headers.get("location")).toMatch(/^\/en\/login/);
  });

  it("hides used codes on the coupons page unless the plain link asks for them", async () => {
    const user = await portal.researcher();
    await portal.ctx.db
      .insertInto("promo_codes")
      .values([
        { code: `RWFREE${user.id}`, percent_off: "5", max_uses: 1, user_id: user.id, source: "level:level1" },
        { code: `RWUSED${user.id}`, amount_off_cents: 2500, max_uses: 1, times_used: 1, user_id: user.id, source: "level:level2" },
      ])
      .execute();
    let html = await (await user.client.get("/cn/researcher/coupons")).text();
    expect(html).toContain(`RWFREE${user.id}`);
    expect(html).not.toContain(`RWUSED${user.id}`);
    expect(html).toContain(`href="/cn/researcher/coupons?showUsed=1"`);
    expect(html).toContain("铜牌等级奖励");
    html = await (await user.client.get("/cn/researcher/coupons?showUsed=1")).text();
    expect(html).toContain(`RWUSED${user.id}`);
    expect(html).toContain("$25");
    // Another researcher sees none of them.
    const other = await portal.researcher();
    html = await (await other.client.get("/en/researcher/coupons")).text();
    expect(html).not.toContain(`RWFREE${user.id}`);
    expect(html).toContain("You have no promotion codes right now.");
  });

  it("shows the order's points on the thank-you view, and waits for them without JavaScript while they are not in", async () => {
    const { user, externalId } = await paidResearcher();
    let html = await (await user.client.get(`/en/researcher/index/details/${externalId}/thank-you`)).text();
    expect(html).toContain("This order earned you");
    expect(html).not.toContain("rewardsPoll");

    // A paid order whose points are not in yet: the block refreshes the page (noscript) and counts its tries.
    const waiting = await portal.researcher();
    const { order } = await createInvoice(portal.ctx, waiting);
    await portal.ctx.db.updateTable("orders").set({ paid: true }).where("external_id", "=", order.externalId).execute();
    const page = `/en/researcher/index/details/${order.externalId}/thank-you`;
    html = await (await waiting.client.get(page)).text();
    expect(html).toContain("Your reward points for this order will appear here once your payment is confirmed.");
    expect(html).toContain("url=?rewardsPoll=1");
    html = await (await waiting.client.get(`${page}?rewardsPoll=10`)).text();
    expect(html).not.toContain("rewardsPoll=11");
    expect(html).toContain("Reward points are added once the order is paid.");
    // Without rewards there is no block at all.
    await portal.ctx.db.updateTable("users").set({ has_rewards: false }).where("id", "=", waiting.id).execute();
    html = await (await waiting.client.get(page)).text();
    expect(html).not.toContain("thank-you-rewards");
  });
});

async function expect303Like(r: Response, to: RegExp) {
  expect([302, 303]).toContain(r.status);
  expect(r.headers.get("location")).toMatch(to);
}

describe("the staff promotions console", () => {
  it("creates a campaign and a code, deactivates it (POST → 303 → GET); researchers 403, cross-site refused", async () => {
    const c = staff.client;
    expect((await c.get("/en/staff/promotions")).status).toBe(200);
    const bad = await c.post("/en/staff/promotions", { intent: "create", name: "" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a name.");
    let r = await c.post("/en/staff/promotions", { intent: "create", name: "Autumn sale", highlighted: "on" });
    await expect303(r, /^\/en\/staff\/promotions\/\d+\?created=1$/);
    const page = r.headers.get("location")!.replace(/\?.*$/, "");
    expect(await (await c.get(r.headers.get("location")!)).text()).toContain("Autumn sale");
    const code = `AUTUMN-${Date.now()}`;
    r = await c.post(page, { intent: "add-code", code, kind: "amount", amount: "30.00", maxUses: "5" });
    await expect303(r, new RegExp(`\\?code=${code}$`));
    let html = await (await c.get(r.headers.get("location")!)).text();
    expect(html).toContain(code);
    expect(html).toContain("$30");
    const bad2 = await c.post(page, { intent: "add-code", code: "x", kind: "percent", percent: "500" });
    expect(bad2.status).toBe(400);
    expect(await bad2.text()).toContain("Enter a whole percentage from 1 to 100.");
    const row = await portal.ctx.db.selectFrom("promo_codes").select("id").where("code", "=", code).executeTakeFirstOrThrow();
    r = await c.post(page, { intent: "deactivate", codeId: String(row.id) });
    await expect303(r, /\?deactivated=/);
    html = await (await c.get(r.headers.get("location")!)).text();
    expect(html).toContain("Inactive");
    expect((await c.post(page, { intent: "nonsense" })).status).toBe(400);
    expect((await c.get("/en/staff/promotions/999999")).status).toBe(404);

    const researcher = await portal.researcher();
    expect((await researcher.client.get("/en/staff/promotions")).status).toBe(403);
    expect((await researcher.client.post("/en/staff/promotions", { intent: "create", name: "Mine" })).status).toBe(403);
    const cross = await c.request("/en/staff/promotions", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "intent=create&name=Cross",
    });
    expect(cross.status).toBe(403);
    expect(await portal.ctx.db.selectFrom("promo_campaigns").select("id").where("name", "in", ["Mine", "Cross"]).execute()).toEqual([]);
  });
});
