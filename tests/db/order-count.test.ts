// numberOfOrders (spec 1 §3 "User") and GET /api/users/{id}/order-count count the user's placed orders,
// and the cached user view does not keep an old count after an order is placed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createPlacedOrder, createResearcher } from "../helpers/factories";
import { getUserView, orderCount } from "#server/accounts/account";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

describe("number of orders", () => {
  it("counts the user's own placed orders, and the cached view follows a new order", async () => {
    const ada = await createResearcher(t.ctx);
    const other = await createResearcher(t.ctx);
    expect(await orderCount(t.ctx, ada.id)).toBe(0);
    expect((await getUserView(t.ctx, ada.id))?.numberOfOrders).toBe(0); // now cached

    await createPlacedOrder(t.ctx, ada);
    expect(await orderCount(t.ctx, ada.id)).toBe(1);
    expect((await getUserView(t.ctx, ada.id))?.numberOfOrders).toBe(1);

    await createPlacedOrder(t.ctx, ada);
    expect(await orderCount(t.ctx, ada.id)).toBe(2);
    expect((await getUserView(t.ctx, ada.id))?.numberOfOrders).toBe(2);
    // Another researcher's orders are not counted.
    expect(await orderCount(t.ctx, other.id)).toBe(0);
    expect((await getUserView(t.ctx, other.id))?.numberOfOrders).toBe(0);
  });
});
