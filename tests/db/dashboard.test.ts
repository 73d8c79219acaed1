// The dashboard's reads on a real database (issue 11 §3, spec 2 §2, §9): the order search (filters, dates as
// days of the researcher's clock, 30 a page, the owner only), the unpaid invoices, the unfinished order form,
// referral codes, and the widget rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createPlacedOrder, createResearcher, scopeFor, type TestUser } from "../helpers/factories";
import {
  UNPAID_LISTED_MAX,
  dashboardOf,
  dashboardWidgets,
  filterInstants,
  hasUnfinishedOrderForm,
  referralLinkOf,
  searchMyOrders,
  startOfDay,
  unpaidInvoicesOf,
} from "../../server/orders/dashboard";
import { orderSearchSchema, type OrderSearchInput } from "../../app/common/orders/search";
import { systemScope } from "../../server/scope";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const q = (input: Record<string, string>): OrderSearchInput => orderSearchSchema.parse(input);

async function search(user: Pick<TestUser, "id">, input: Record<string, string> = {}) {
  const r = await searchMyOrders(scopeFor(t.ctx, user), q(input));
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

async function setCreated(externalId: string, at: string) {
  await t.ctx.db
    .updateTable("orders")
    .set({ created_at: new Date(at) })
    .where("external_id", "=", externalId)
    .execute();
}

describe("the order search", () => {
  let ada: TestUser;
  let soil: string;
  let glacier: string;
  let coral: string;

  beforeAll(async () => {
    ada = await createResearcher(t.ctx);
    soil = (await createPlacedOrder(t.ctx, ada, { projectTitle: "Soil bacteria 100% under drought" })).externalId;
    glacier = (await createPlacedOrder(t.ctx, ada, { projectTitle: "Retreating glaciers" })).externalId;
    coral = (await createPlacedOrder(t.ctx, ada, { projectTitle: "Coral_reef bleaching" })).externalId;
    // US localisation: America/New_York. 10 March 2026 23:30 there is 11 March 03:30 UTC.
    await setCreated(soil, "2026-03-11T03:30:00Z");
    await setCreated(glacier, "2026-03-11T05:00:00Z");
    await setCreated(coral, "2026-04-01T12:00:00Z");
  });

  it("filters by order number and by title, matching % and _ literally", async () => {
    expect((await search(ada, { xid: glacier })).orders.map((o) => o.externalId)).toEqual([glacier]);
    expect((await search(ada, { orderTitle: "SOIL" })).orders.map((o) => o.externalId)).toEqual([soil]);
    expect((await search(ada, { orderTitle: "100%" })).orders.map((o) => o.externalId)).toEqual([soil]);
    // "_" is no wildcard: "e_t" would otherwise match "Retreating".
    expect((await search(ada, { orderTitle: "e_t" })).orders).toEqual([]);
    expect((await search(ada, { orderTitle: "Coral_reef" })).orders.map((o) => o.externalId)).toEqual([coral]);
    // The path's "_" is no filter.
    expect((await search(ada, { orderTitle: "_" })).pagination.total).toBe(3);
  });

  it("reads from and to as whole days of the researcher's localisation's clock", async () => {
    const ids = async (input: Record<string, string>) => (await search(ada, input)).orders.map((o) => o.externalId).sort();
    expect(await ids({ from: "03/10/2026", to: "03/10/2026" })).toEqual([soil]);
    expect(await ids({ from: "03/11/2026", to: "03/11/2026" })).toEqual([glacier]);
    expect(await ids({ from: "03/11/2026" })).toEqual([coral, glacier].sort());
    expect(await ids({ to: "03/31/2026" })).toEqual([glacier, soil].sort());
    // Shanghai's clock (CN users): 11 March 11:30 and 13:00 there.
    const cn = await createResearcher(t.ctx, {
      country: "CN",
      currency: "CNY",
      language: "cn",
      countryCode: "CN",
      phoneNumber: "13800138000",
    });
    const local = (await t.ctx.db.selectFrom("users").select("localization").where("id", "=", cn.id).executeTakeFirstOrThrow())
      .localization;
    const o = await createPlacedOrder(t.ctx, cn, { projectTitle: "Shanghai order", currencyIso: "CNY" });
    await setCreated(o.externalId, "2026-03-10T17:00:00Z");
    const cnScope = systemScope(t.ctx, { userId: cn.id, lang: "cn", localization: local });
    const found = await searchMyOrders(cnScope, q({ from: "03/11/2026", to: "03/11/2026" }));
    expect(local).toBe("CN");
    expect(found.ok && found.value.orders.map((x) => x.externalId)).toEqual([o.externalId]);
    // The same instant is 10 March on the US clock.
    expect((await search(cn, { from: "03/11/2026", to: "03/11/2026" })).orders).toEqual([]);
  });

  it("turns days into instants across DST changes", () => {
    // New York: 8 March 2026 is the spring-forward day (23 hours).
    expect(startOfDay([2026, 3, 8], "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfDay([2026, 3, 9], "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    // `to` is the next day's start less 24 h (searchOrders adds them back).
    expect(filterInstants({ to: "03/08/2026" }, "America/New_York").to).toBe("2026-03-08T04:00:00.000Z");
    expect(filterInstants({ from: "01/01/2026" }, "UTC").from).toBe("2026-01-01T00:00:00.000Z");
  });

  it("refuses bad filters in the schema (never a database error)", () => {
    for (const [input, field, code] of [
      [{ from: "13/45/2026" }, "from", "date-invalid"],
      [{ from: "02/30/2026" }, "from", "date-invalid"],
      [{ to: "2026-03-01" }, "to", "date-invalid"],
      [{ from: "03/02/2026", to: "03/01/2026" }, "to", "date-range-invalid"],
      [{ page: "0" }, "page", "page-invalid"],
      [{ page: "1.5" }, "page", "page-invalid"],
      [{ xid: "X".repeat(41) }, "xid", "xid-too-long"],
    ] as const) {
      const r = orderSearchSchema.safeParse(input);
      expect(r.success, JSON.stringify(input)).toBe(false);
      expect(r.error!.issues[0]).toMatchObject({ path: [field], message: `dashboard:errors.${code}` });
    }
    expect(orderSearchSchema.parse({ from: " 03/01/2026 ", page: "2" })).toEqual({ from: "03/01/2026", page: 2 });
  });

  it("pages by 30, newest first, and shows only the owner's orders", async () => {
    const bob = await createResearcher(t.ctx);
    const mine: string[] = [];
    for (let i = 0; i < 31; i++) mine.push((await createPlacedOrder(t.ctx, bob, { projectTitle: `Bob ${i}` })).externalId);
    const one = await search(bob);
    expect(one.pagination).toEqual({ page: 1, pageSize: 30, total: 31, pages: 2 });
    expect(one.orders).toHaveLength(30);
    expect(one.orders[0].externalId).toBe(mine[30]);
    const two = await search(bob, { page: "2" });
    expect(two.orders.map((o) => o.externalId)).toEqual([mine[0]]);
    expect((await search(bob, { page: "3" })).orders).toEqual([]);
    // Neither sees the other's.
    expect((await search(bob, { xid: soil })).orders).toEqual([]);
    expect((await search(ada, { xid: mine[0] })).orders).toEqual([]);
    expect((await search(ada)).pagination.total).toBe(3);
    // The internal id stays on the server; flags and certificate travel.
    expect(one.orders[0]).not.toHaveProperty("id");
    expect(one.orders[0]).toMatchObject({ certificate: null, flags: { displayStatus: "awaiting-payment" } });
    // No user: no orders.
    expect((await searchMyOrders(systemScope(t.ctx, { lang: "en", localization: "US" }), q({}))).ok).toBe(false);
  });
});

describe("the banner, the alert, the referral link and the widgets", () => {
  it("counts unpaid invoices and lists them only up to 10", async () => {
    const payer = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, payer);
    expect(await unpaidInvoicesOf(scope)).toEqual({ count: 0, invoices: [] });
    const first = await createInvoice(t.ctx, payer);
    let r = await unpaidInvoicesOf(scope);
    expect(r.count).toBe(1);
    expect(r.invoices![0]).toMatchObject({
      number: first.invoice.number,
      balance: Number(first.invoice.balance),
      currency: { isoCode: "USD" },
    });
    // Paid, or a zero balance: not unpaid.
    await t.ctx.db.updateTable("invoices").set({ balance: 0 }).where("number", "=", first.invoice.number).execute();
    expect((await unpaidInvoicesOf(scope)).count).toBe(0);
    for (let i = 0; i < UNPAID_LISTED_MAX; i++) await createInvoice(t.ctx, payer);
    r = await unpaidInvoicesOf(scope);
    expect(r.count).toBe(10);
    expect(r.invoices).toHaveLength(10);
    await createInvoice(t.ctx, payer);
    expect(await unpaidInvoicesOf(scope)).toEqual({ count: 11, invoices: null });
    // Another user's are not theirs.
    expect((await unpaidInvoicesOf(scopeFor(t.ctx, await createResearcher(t.ctx)))).count).toBe(0);
  });

  it("sees an unfinished order form only when it has services or files", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    expect(await hasUnfinishedOrderForm(scope)).toBe(false);
    // A form with its uploaded file (the factories' first step).
    const form = await createOrderFormFor(t.ctx, user);
    expect(await hasUnfinishedOrderForm(scope)).toBe(true);
    await t.ctx.db.updateTable("files").set({ deleted_at: new Date() }).where("order_form_id", "=", form.id).execute();
    expect(await hasUnfinishedOrderForm(scope)).toBe(false);
    await t.ctx.db
      .updateTable("order_forms")
      .set({ selections: JSON.stringify([{ serviceSlug: "standard-editing" }]) })
      .where("id", "=", form.id)
      .execute();
    expect(await hasUnfinishedOrderForm(scope)).toBe(true);
    // Placed, it is finished.
    await t.ctx.db.updateTable("order_forms").set({ status: "placed" }).where("id", "=", form.id).execute();
    expect(await hasUnfinishedOrderForm(scope)).toBe(false);
  });

  it("gives every user their own referral code and a link to sign up with it", async () => {
    const a = await createResearcher(t.ctx);
    const b = await createResearcher(t.ctx);
    const codes = await t.ctx.db.selectFrom("users").select(["id", "referral_code"]).where("id", "in", [a.id, b.id]).execute();
    expect(codes).toHaveLength(2);
    expect(codes[0].referral_code).not.toBe(codes[1].referral_code);
    for (const c of codes) expect(c.referral_code).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{12}$/);
    const link = await referralLinkOf(scopeFor(t.ctx, a));
    expect(link).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:0/en/register\\?referralCode=${codes.find((c) => c.id === a.id)!.referral_code}$`),
    );
    // In the referrer's language, whatever the page's (issue 22 item 2).
    const cn = await createResearcher(t.ctx, { language: "cn" });
    expect(await referralLinkOf(scopeFor(t.ctx, cn))).toMatch(/^http:\/\/127\.0\.0\.1:0\/cn\/register\?referralCode=[2-9A-HJ-NP-Z]{12}$/);
    expect(await referralLinkOf(systemScope(t.ctx, { lang: "en", localization: "US" }))).toBeNull();
  });

  it("decides the widgets by the spec's rules", () => {
    const base = { hasRewards: false, hideInvoices: false, creditBalance: 0, preferredGroup: null };
    expect(dashboardWidgets(base)).toEqual({
      referrals: true,
      rewards: false,
      prepayCredits: false,
      preferredGroup: false,
      joinGroup: true,
    });
    expect(dashboardWidgets({ ...base, creditBalance: 500 }).prepayCredits).toBe(true);
    expect(dashboardWidgets({ ...base, creditBalance: 500, hideInvoices: true }).prepayCredits).toBe(false);
    expect(dashboardWidgets({ ...base, creditBalance: 500, hasRewards: true })).toMatchObject({ rewards: true, prepayCredits: false });
    expect(dashboardWidgets({ ...base, preferredGroup: { membershipDisplayed: true } })).toMatchObject({
      preferredGroup: true,
      joinGroup: false,
    });
  });

  it("reads the whole page at once", async () => {
    const user = await createResearcher(t.ctx);
    await createPlacedOrder(t.ctx, user, { projectTitle: "Dashboard order" });
    const r = await dashboardOf(scopeFor(t.ctx, user), q({}));
    if (!r.ok) throw new Error(r.error);
    expect(r.value.panels).toHaveLength(1);
    expect(r.value.panels[0]).toMatchObject({
      title: "Dashboard order",
      displayStatus: "awaiting-payment",
      services: ["catalogue:services.standard-editing"],
      downloadAvailable: false,
    });
    expect(r.value.unpaid.count).toBe(1);
    expect(r.value.timeZone).toBe("America/New_York");
  });
});
