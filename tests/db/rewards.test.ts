// Reward points and promotions on a real database (issue 25 items 1–2, ADR 075): an order's points are awarded once
// when its invoice is settled in full (a second settlement, 20 concurrent ones: one history row), reversed once when
// the invoice is re-opened or the order cancelled; a duplicate's surplus keeps them; a level reached grants its
// benefits once and the level follows the points down; staff campaign codes and earned personal codes apply in the
// wizard, another user's personal code does not; the reads are the user's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createResearcher, createStaff, payInFull, scopeFor } from "../helpers/factories";
import { readSession } from "../../server/accounts/session";
import { systemScope, type Scope } from "../../server/scope";
import { invoiceReopened, invoiceSettled } from "../../server/billing";
import { transitionOrder } from "../../server/orders/life";
import { applyPromoCode } from "../../server/order-form/promo";
import { changePoints, loyaltyOf, loyaltySettings, orderRewardPoints, rewardHistoryOf } from "../../server/rewards";
import { createCampaign, createCampaignCode, deactivateCampaignCode, listCampaigns } from "../../server/staff/promotions";
import { getUserView } from "../../server/accounts/account";

let t: TestContext;
let staffScope: Scope;
let staffId: number;
beforeAll(async () => {
  t = await createTestContext();
  const staff = await createStaff(t.ctx);
  staffId = staff.id;
  staffScope = systemScope(t.ctx, { userId: staff.id, lang: "en", localization: "US", session: await readSession(t.ctx.db, staff.token) });
});
afterAll(async () => t.close());

const history = (userId: number) => t.ctx.db.selectFrom("reward_history").selectAll().where("user_id", "=", userId).orderBy("id").execute();
const points = async (userId: number) =>
  await t.ctx.db.selectFrom("users").select(["reward_points", "loyalty_level"]).where("id", "=", userId).executeTakeFirstOrThrow();
const orderIdOf = async (externalId: string) =>
  (await t.ctx.db.selectFrom("orders").select("id").where("external_id", "=", externalId).executeTakeFirstOrThrow()).id;

/** The settled event as billing emits it once the invoice's balance is 0 (a webhook's retry, a second tab). */
async function settleAgain(invoiceNumber: string) {
  const inv = await t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", invoiceNumber).executeTakeFirstOrThrow();
  return t.ctx.db.transaction().execute((trx) =>
    invoiceSettled.emit(trx, {
      kind: "order",
      invoiceNumber,
      userId: inv.user_id,
      orderId: inv.order_id,
      orderStatus: "placed",
      invoiceAmount: Number(inv.amount),
      amount: 0,
      currencyIso: inv.currency_iso.trim(),
      reference: "again",
      receivedOn: new Date().toISOString().slice(0, 10),
      balance: Number(inv.balance),
      paymentId: null,
      actor: { userId: staffId },
    }),
  );
}

describe("order points", () => {
  it("awards an order's points once when its invoice is paid in full, at 1 point per US dollar", async () => {
    const user = await createResearcher(t.ctx);
    const { order, invoice } = await createInvoice(t.ctx, user);
    const orderId = await orderIdOf(order.externalId);
    const before = await orderRewardPoints(scopeFor(t.ctx, user), order.externalId);
    expect(before.ok && before.value).toMatchObject({ updated: false, totalRewardPoints: 0 });

    await payInFull(t.ctx, { userId: staffId }, orderId);
    const rows = await history(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "order-paid", source_key: `order-paid:${orderId}`, order_id: orderId });
    expect(rows[0].points).toBe(Math.floor(Number(invoice.amount) / 100));
    expect(rows[0].points_to_date).toBe(rows[0].points);
    expect((await points(user.id)).reward_points).toBe(rows[0].points);

    // A second settlement of the same invoice (a retry, a duplicate's surplus: balance <= 0 again) adds nothing.
    await settleAgain(invoice.number);
    expect(await history(user.id)).toHaveLength(1);

    const after = await orderRewardPoints(scopeFor(t.ctx, user), order.externalId);
    expect(after.ok && after.value).toMatchObject({ updated: true, orderPoints: rows[0].points, totalRewardPoints: rows[0].points });
    // The account's fields follow (the cached view was dropped after the commit).
    const view = await getUserView(t.ctx, user.id);
    expect(view).toMatchObject({ totalRewardPoints: rows[0].points, hasRewards: true, loyaltyLevelIdentity: "level0" });

    // Another user's order is not found.
    const other = await createResearcher(t.ctx);
    expect(await orderRewardPoints(scopeFor(t.ctx, other), order.externalId)).toMatchObject({ ok: false, error: "not-found" });
  });

  it("gives one history row for 20 concurrent settlements", async () => {
    const user = await createResearcher(t.ctx);
    const { order, invoice } = await createInvoice(t.ctx, user);
    await t.ctx.db.updateTable("invoices").set({ balance: 0, status: "paid" }).where("number", "=", invoice.number).execute();
    await t.ctx.db.updateTable("orders").set({ paid: true }).where("external_id", "=", order.externalId).execute();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => settleAgain(invoice.number)));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const rows = await history(user.id);
    expect(rows).toHaveLength(1);
    expect((await points(user.id)).reward_points).toBe(rows[0].points);
  });

  it("reverses once when the invoice is re-opened, and a cancellation after it takes nothing more", async () => {
    const user = await createResearcher(t.ctx);
    const { order, invoice } = await createInvoice(t.ctx, user);
    const orderId = await orderIdOf(order.externalId);
    await payInFull(t.ctx, { userId: staffId }, orderId);
    const earned = (await points(user.id)).reward_points;
    expect(earned).toBeGreaterThan(0);
    const reopen = () =>
      t.ctx.db
        .transaction()
        .execute((trx) => invoiceReopened.emit(trx, { invoiceNumber: invoice.number, orderId, amount: 100, actor: { userId: staffId } }));
    await Promise.all([reopen(), reopen(), reopen()]);
    let rows = await history(user.id);
    expect(rows.map((r) => [r.name, r.points])).toEqual([
      ["order-paid", earned],
      ["order-reversed", -earned],
    ]);
    expect(await points(user.id)).toMatchObject({ reward_points: 0, loyalty_level: "level0" });
    const cancelled = await transitionOrder(t.ctx, { userId: staffId }, { orderId }, "cancel");
    expect(cancelled.ok).toBe(true);
    rows = await history(user.id);
    expect(rows).toHaveLength(2);
  });

  it("takes the points back once when a paid order is cancelled; paid again after a reversal it earns again once", async () => {
    const user = await createResearcher(t.ctx);
    const { order, invoice } = await createInvoice(t.ctx, user);
    const orderId = await orderIdOf(order.externalId);
    await payInFull(t.ctx, { userId: staffId }, orderId);
    const earned = (await points(user.id)).reward_points;
    // Re-opened, then settled again: a second award with its own key.
    await t.ctx.db
      .transaction()
      .execute((trx) => invoiceReopened.emit(trx, { invoiceNumber: invoice.number, orderId, amount: 1, actor: { userId: staffId } }));
    await settleAgain(invoice.number);
    await settleAgain(invoice.number);
    expect((await history(user.id)).map((r) => r.source_key)).toEqual([
      `order-paid:${orderId}`,
      `order-reversed:${orderId}:1`,
      `order-paid:${orderId}:1`,
    ]);
    expect((await points(user.id)).reward_points).toBe(earned);
    const cancelled = await transitionOrder(t.ctx, { userId: staffId }, { orderId }, "cancel");
    expect(cancelled.ok).toBe(true);
    const rows = await history(user.id);
    expect(rows.at(-1)).toMatchObject({
      name: "order-reversed",
      points: -earned,
      points_to_date: 0,
      source_key: `order-reversed:${orderId}:2`,
    });
    // A cancelled order earns nothing when a late settlement arrives.
    await settleAgain(invoice.number);
    expect(await history(user.id)).toHaveLength(4);
  });
});

describe("settings", () => {
  it("read the environment's CONFIG_* override, as every other setting does (also inside a transaction)", async () => {
    expect((await loyaltySettings(t.ctx.db)).pointsPerUsd).toBe(1);
    process.env.CONFIG_REWARD_POINTS_PER_USD = "3";
    try {
      const inTrx = await t.ctx.db.transaction().execute((trx) => loyaltySettings(trx));
      expect(inTrx.pointsPerUsd).toBe(3);
    } finally {
      delete process.env.CONFIG_REWARD_POINTS_PER_USD;
    }
    expect((await loyaltySettings(t.ctx.db)).pointsPerUsd).toBe(1);
  });
});

describe("levels", () => {
  it("grants a level's benefits once; the level follows the points down, the codes stay", async () => {
    const user = await createResearcher(t.ctx);
    // Level 1 needs 200 points and 1 paid order.
    await changePoints(t.ctx.db, { userId: user.id, points: 300, name: "staff-adjustment", sourceKey: `test:${user.id}:a` });
    expect((await points(user.id)).loyalty_level).toBe("level0");
    const { order } = await createInvoice(t.ctx, user);
    await payInFull(t.ctx, { userId: staffId }, await orderIdOf(order.externalId));
    expect((await points(user.id)).loyalty_level).toBe("level1");
    const codes = () => t.ctx.db.selectFrom("promo_codes").selectAll().where("user_id", "=", user.id).execute();
    const granted = await codes();
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ source: "level:level1", max_uses: 1, times_used: 0, active: true });
    expect(granted[0].ends_at!.getTime()).toBeGreaterThan(Date.now() + 170 * 86_400_000);

    // Concurrent changes: one more code never appears.
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.ctx.db
          .transaction()
          .execute((trx) =>
            changePoints(trx, { userId: user.id, points: 1, name: "staff-adjustment", sourceKey: `test:${user.id}:c${i}` }),
          ),
      ),
    );
    expect(await codes()).toHaveLength(1);

    // Down below level 1, and back: the level follows, the benefit is not granted twice.
    const total = (await points(user.id)).reward_points;
    await changePoints(t.ctx.db, { userId: user.id, points: -total, name: "staff-adjustment", sourceKey: `test:${user.id}:down` });
    expect(await points(user.id)).toMatchObject({ reward_points: 0, loyalty_level: "level0" });
    await changePoints(t.ctx.db, { userId: user.id, points: 250, name: "staff-adjustment", sourceKey: `test:${user.id}:up` });
    expect((await points(user.id)).loyalty_level).toBe("level1");
    expect(await codes()).toHaveLength(1);
    const grants = await t.ctx.db.selectFrom("loyalty_level_grants").selectAll().where("user_id", "=", user.id).execute();
    expect(grants.map((g) => g.level)).toEqual(["level1"]);

    const loyalty = await loyaltyOf(scopeFor(t.ctx, user));
    expect(loyalty.ok && loyalty.value.earnedPromotionalCodeBenefits).toEqual([
      expect.objectContaining({ code: granted[0].code, used: false, discount: { kind: "percent", amount: 5, displayableAmount: "5%" } }),
    ]);
    expect(loyalty.ok && loyalty.value.earnedEducationalBenefits.map((e) => e.key)).toEqual(["grammar-check"]);
    expect(loyalty.ok && loyalty.value.progress).toMatchObject({ current: "level1", next: "level2" });

    const page = await rewardHistoryOf(scopeFor(t.ctx, user), 1);
    expect(page.ok && page.value.pagination).toMatchObject({ page: 1, pageSize: 10, total: 9, pages: 1 });
    expect(page.ok && page.value.rewardHistory[0].pointsToDate).toBe(250);
    for (const n of ["ten", "eleven"])
      await changePoints(t.ctx.db, { userId: user.id, points: 1, name: "staff-adjustment", sourceKey: `test:${user.id}:${n}` });
    const second = await rewardHistoryOf(scopeFor(t.ctx, user), 2);
    expect(second.ok && second.value.rewardHistory).toHaveLength(1);
    expect(second.ok && second.value.pagination.pages).toBe(2);
  });
});

describe("promotions", () => {
  it("lets staff create a campaign and its codes (audited); researchers may not", async () => {
    const researcher = await createResearcher(t.ctx);
    expect(await createCampaign(scopeFor(t.ctx, researcher), { name: "Nope" })).toMatchObject({ ok: false, error: "not-allowed" });
    expect(await listCampaigns(scopeFor(t.ctx, researcher))).toMatchObject({ ok: false, error: "not-allowed" });
    const bad = await createCampaign(staffScope, { name: " ", endsOn: "2026-02-30" });
    expect(!bad.ok && bad.fieldErrors).toEqual({ name: "rewards:errors.name-required", endsOn: "rewards:errors.invalid-date" });
    const c = await createCampaign(staffScope, { name: "Spring", highlighted: "on" });
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    const badCode = await createCampaignCode(staffScope, c.value.id, { code: "x", kind: "percent", percent: "120" });
    expect(!badCode.ok && badCode.fieldErrors).toEqual({ code: "rewards:errors.code-invalid", percent: "rewards:errors.invalid-percent" });
    const code = await createCampaignCode(staffScope, c.value.id, { code: "spring-15", kind: "percent", percent: "15", maxUses: "100" });
    expect(code.ok && code.value.code).toBe("SPRING-15");
    const taken = await createCampaignCode(staffScope, c.value.id, { code: "SPRING-15", kind: "amount", amount: "10" });
    expect(!taken.ok && taken.fieldErrors).toEqual({ code: "rewards:errors.code-taken" });
    expect(await createCampaignCode(staffScope, 999999, { kind: "amount", amount: "10" })).toMatchObject({ ok: false, error: "not-found" });
    const audits = await t.ctx.db
      .selectFrom("audit_log")
      .select("action")
      .where("actor_user_id", "=", staffId)
      .where("action", "like", "staff.promotion.%")
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(["staff.promotion.campaign-create", "staff.promotion.code-create"]);

    // The researcher's rewards page shows the highlighted campaign code.
    const loyalty = await loyaltyOf(scopeFor(t.ctx, researcher));
    expect(loyalty.ok && loyalty.value.highlightedPromotions.map((p) => p.code)).toContain("SPRING-15");
  });

  it("applies a campaign code and the user's own earned code in the wizard; another user's code is invalid", async () => {
    const c = await createCampaign(staffScope, { name: "Wizard" });
    if (!c.ok) throw new Error("campaign");
    const made = await createCampaignCode(staffScope, c.value.id, { code: "WIZ-20", kind: "amount", amount: "20.00" });
    expect(made.ok).toBe(true);
    const owner = await createResearcher(t.ctx);
    const other = await createResearcher(t.ctx);
    await t.ctx.db
      .insertInto("promo_codes")
      .values({ code: `RWOWN${owner.id}`, percent_off: "5", max_uses: 1, user_id: owner.id, source: "level:level1" })
      .execute();
    const form = await createOrderFormFor(t.ctx, owner, { services: ["standard-editing"], projectTitle: "Promo" });
    const campaign = await applyPromoCode(scopeFor(t.ctx, owner), form, "wiz-20");
    expect(campaign.ok).toBe(true);
    const own = await applyPromoCode(scopeFor(t.ctx, owner), { ...form, promo_code: null }, `rwown${owner.id}`);
    expect(own.ok).toBe(true);
    const otherForm = await createOrderFormFor(t.ctx, other, { services: ["standard-editing"], projectTitle: "Promo" });
    expect(await applyPromoCode(scopeFor(t.ctx, other), otherForm, `RWOWN${owner.id}`)).toMatchObject({
      ok: false,
      error: "promo-code-invalid",
    });

    // Deactivated, the campaign code is refused at once (the catalogue cache was dropped).
    const list = await t.ctx.db.selectFrom("promo_codes").select("id").where("code", "=", "WIZ-20").executeTakeFirstOrThrow();
    expect(await deactivateCampaignCode(staffScope, c.value.id, list.id)).toMatchObject({ ok: true, value: { already: false } });
    expect(await deactivateCampaignCode(staffScope, c.value.id, list.id)).toMatchObject({ ok: true, value: { already: true } });
    const fresh = await createOrderFormFor(t.ctx, other, { services: ["standard-editing"], projectTitle: "Promo 2" });
    const refused = await applyPromoCode(scopeFor(t.ctx, other), fresh, "WIZ-20");
    expect(refused.ok).toBe(false);
  });
});
