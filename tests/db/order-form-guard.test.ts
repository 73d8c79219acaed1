// A placed order form cannot change any more (issue 10 §13): service or word-count changes racing a
// placement either make it into the order (the placement re-prices the newer form) or are refused, so the
// placed form always matches its order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createResearcher, scopeFor } from "../helpers/factories";
import { OrderFormClosedError, saveOrderForm } from "../../server/order-form/store";
import { placeOrder } from "../../server/orders/place";
import { PAYMENT_METHOD } from "../../server/payments";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("order-form write guard", () => {
  it("keeps the placed form equal to its order while ten changes race the placement", async () => {
    for (let round = 0; round < 3; round++) {
      const user = await createResearcher(t.ctx);
      const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: `Guard ${round}` });
      const changes = Array.from({ length: 10 }, (_, i) =>
        pause(i).then(() =>
          saveOrderForm(t.ctx.db, form, { word_count: 4000 + 100 * i }).then(
            () => "saved",
            (error: unknown) => (error instanceof OrderFormClosedError ? "refused" : Promise.reject(error)),
          ),
        ),
      );
      const placed = await placeOrder(scopeFor(t.ctx, user), form, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true });
      const outcomes = await Promise.all(changes);
      expect(placed.ok).toBe(true);
      const row = await t.ctx.db
        .selectFrom("order_forms")
        .select(["status", "word_count"])
        .where("id", "=", form.id)
        .executeTakeFirstOrThrow();
      const order = await t.ctx.db
        .selectFrom("orders")
        .select(["word_count"])
        .where("order_form_id", "=", form.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("placed");
      expect(order.word_count).toBe(row.word_count);
      expect(outcomes.every((o) => o === "saved" || o === "refused")).toBe(true);
    }
  });

  it("refuses any write to a placed form", async () => {
    const user = await createResearcher(t.ctx);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Placed" });
    const placed = await placeOrder(scopeFor(t.ctx, user), form, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true });
    expect(placed.ok).toBe(true);
    await expect(saveOrderForm(t.ctx.db, form, { word_count: 9999 })).rejects.toBeInstanceOf(OrderFormClosedError);
    const row = await t.ctx.db.selectFrom("order_forms").select(["word_count"]).where("id", "=", form.id).executeTakeFirstOrThrow();
    expect(row.word_count).toBe(3000);
  });
});
