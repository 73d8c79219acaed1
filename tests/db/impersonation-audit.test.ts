// What staff do while viewing the portal as a researcher is audited (issue 10 §8): an order placed names
// the staff member (orders.impersonator_id) and leaves an audit row, as do changed details; signing out
// while viewing as someone writes the stop row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { placeOrder } from "../../server/orders/place";
import { PAYMENT_METHOD } from "../../server/payments";
import { updateDetails } from "../../server/accounts/account";
import { detailsBodySchema } from "../../app/common/accounts/schemas";
import { createSession, readSession } from "../../server/accounts/session";
import { signOut } from "../../server/auth/sign-in";
import type { Scope } from "../../server/scope";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

async function impersonated(researcherId: number, staffId: number): Promise<Scope> {
  const token = await createSession(t.ctx.db, researcherId, { impersonatorId: staffId });
  const session = await readSession(t.ctx.db, token);
  return { ...scopeFor(t.ctx, { id: researcherId }), session, impersonatorId: staffId, sessionToken: token };
}

const rowsOf = (staffId: number) =>
  t.ctx.db.selectFrom("audit_log").select(["action", "target_type", "target_id", "data"]).where("actor_user_id", "=", staffId).execute();

describe("impersonation audit", () => {
  it("records the staff member on an order placed and on details changed while viewing as the researcher", async () => {
    const staff = await createStaff(t.ctx);
    const user = await createResearcher(t.ctx);
    const scope = await impersonated(user.id, staff.id);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Placed by staff" });
    const placed = await placeOrder(scope, form, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const order = await t.ctx.db
      .selectFrom("orders")
      .select("impersonator_id")
      .where("external_id", "=", placed.value.externalId)
      .executeTakeFirstOrThrow();
    expect(order.impersonator_id).toBe(staff.id);
    const details = await updateDetails(
      scope,
      detailsBodySchema.parse({
        firstName: "Viewed",
        lastName: "As",
        countryCode: "US",
        phoneNumber: "2025550123",
        country: "US",
        language: "en",
        optinToMarketing: false,
      }) as Parameters<typeof updateDetails>[1],
    );
    expect(details.ok).toBe(true);
    const rows = await rowsOf(staff.id);
    expect(rows.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
      ["impersonated.order.place", "order", placed.value.externalId],
      ["impersonated.account.details", "user", String(user.id)],
    ]);
    expect(rows[0].data).toMatchObject({ asUserId: user.id });

    // The researcher's own order names nobody, and leaves no row.
    const own = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Own order" });
    const mine = await placeOrder(scopeFor(t.ctx, user), own, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true });
    expect(mine.ok).toBe(true);
    const ownRow = await t.ctx.db
      .selectFrom("orders")
      .select("impersonator_id")
      .where("order_form_id", "=", own.id)
      .executeTakeFirstOrThrow();
    expect(ownRow.impersonator_id).toBeNull();
    expect(await rowsOf(staff.id)).toHaveLength(2);
  });

  it("writes the stop row when staff sign out while viewing as a researcher", async () => {
    const staff = await createStaff(t.ctx);
    const user = await createResearcher(t.ctx);
    await signOut(await impersonated(user.id, staff.id));
    const rows = await rowsOf(staff.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "impersonation.stop", target_type: "user" });
  });
});
