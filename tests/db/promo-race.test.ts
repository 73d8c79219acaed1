// A promo code's use limit holds under concurrent placements (issue 9 §5): with a code at 99 of 100 uses,
// ten orders placed at once give the discount once; a used-up code cannot be applied to a form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createResearcher, scopeFor } from "../helpers/factories";
import { invalidateCatalogue } from "../../server/catalogue";
import { applyPromoCode } from "../../server/order-form/promo";
import { placeOrder } from "../../server/orders/place";
import { PAYMENT_METHOD } from "../../server/payments";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("promo code use limit", () => {
  it("lets only the last use through when ten orders are placed at once", async () => {
    await t.ctx.db.insertInto("promo_codes").values({ code: "RACE100", percent_off: "10", max_uses: 100, times_used: 99 }).execute();
    await invalidateCatalogue(t.ctx.cache);
    const placements = [];
    for (let i = 0; i < 10; i++) {
      const user = await createResearcher(t.ctx);
      const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: `Race ${i}` });
      const applied = await applyPromoCode(scopeFor(t.ctx, user), form, "race100");
      expect(applied.ok).toBe(true);
      if (!applied.ok) continue;
      placements.push({ user, form: applied.value.form });
    }
    const results = await Promise.all(
      placements.map(({ user, form }) =>
        placeOrder(scopeFor(t.ctx, user), form, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true }),
      ),
    );
    const placed = results.filter((r) => r.ok);
    const refused = results.filter((r) => !r.ok);
    expect(placed).toHaveLength(1);
    expect(refused.map((r) => (r.ok ? null : r.error))).toEqual(Array(9).fill("promo-code-used-up"));
    const row = await t.ctx.db.selectFrom("promo_codes").select(["times_used"]).where("code", "=", "RACE100").executeTakeFirstOrThrow();
    expect(row.times_used).toBe(100);
    const discounted = await t.ctx.db
      .selectFrom("orders")
      .select("discounts")
      .where(
        "order_form_id",
        "in",
        placements.map((p) => p.form.id),
      )
      .execute();
    expect(discounted).toHaveLength(1);
  });

  it("refuses applying a used-up code with its message, even while the catalogue cache still counts it free", async () => {
    await t.ctx.db.insertInto("promo_codes").values({ code: "FULL5", percent_off: "5", max_uses: 5, times_used: 4 }).execute();
    await invalidateCatalogue(t.ctx.cache);
    const first = await createResearcher(t.ctx);
    const form = await createOrderFormFor(t.ctx, first, { services: ["standard-editing"], projectTitle: "Full" });
    const applied = await applyPromoCode(scopeFor(t.ctx, first), form, "FULL5");
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    expect(
      (await placeOrder(scopeFor(t.ctx, first), applied.value.form, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true }))
        .ok,
    ).toBe(true);
    const other = await createResearcher(t.ctx);
    const next = await createOrderFormFor(t.ctx, other, { services: ["standard-editing"] });
    expect(await applyPromoCode(scopeFor(t.ctx, other), next, "FULL5")).toMatchObject({ ok: false, error: "promo-code-used-up" });
  });
});
