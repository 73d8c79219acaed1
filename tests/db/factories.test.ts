// The factories make what the portal makes: registered users who can sign in, order forms on the
// wizard's steps, placed orders with their invoices.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createPlacedOrder, createResearcher, createStaff } from "../helpers/factories";
import { signInWithPassword } from "#server/auth/login";
import { readSession } from "#server/accounts/session";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("factories", () => {
  it("register researchers and staff who can sign in, each with a session", async () => {
    const a = await createResearcher(t.ctx);
    const b = await createResearcher(t.ctx);
    const staff = await createStaff(t.ctx);
    expect(new Set([a.email, b.email, staff.email]).size).toBe(3);
    expect((await readSession(t.ctx.db, a.token))?.user.id).toBe(a.id);
    const signedIn = await signInWithPassword(t.ctx, { email: a.email, password: a.password, ip: "10.9.9.9" });
    expect(signedIn).toMatchObject({ ok: true });
    const flags = await t.ctx.db.selectFrom("users").select(["id", "is_staff"]).where("id", "in", [a.id, staff.id]).orderBy("id").execute();
    expect(flags).toEqual([
      { id: a.id, is_staff: false },
      { id: staff.id, is_staff: true },
    ]);
  });

  it("take an order form through the wizard's steps", async () => {
    const user = await createResearcher(t.ctx);
    expect((await createOrderFormFor(t.ctx, user)).current_step).toBe("get-started");
    const chosen = await createOrderFormFor(t.ctx, user, { services: ["premium-editing"] });
    expect(chosen.selections?.map((s) => s.serviceSlug)).toEqual(["premium-editing"]);
    const ready = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Coral bleaching" });
    expect(ready).toMatchObject({ current_step: "payment-details", project_title: "Coral bleaching", user_id: user.id });
  });

  it("place an order with its unpaid invoice", async () => {
    const user = await createResearcher(t.ctx);
    const order = await createPlacedOrder(t.ctx, user);
    expect(order).toMatchObject({ externalId: expect.stringMatching(/^RS\d+$/), alreadyPlaced: false, currencyIso: "USD" });
    expect(order.total).toBeGreaterThan(0);
    const { invoice } = await createInvoice(t.ctx, user);
    expect(invoice).toMatchObject({ user_id: user.id, status: "unpaid", currency_iso: "USD" });
    expect(Number(invoice.balance)).toBe(Number(invoice.amount));
  });
});
