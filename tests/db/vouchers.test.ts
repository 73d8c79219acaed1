// Vouchers on a real database (issue 12 §7): verification and its refusals, applying and removing on the user's
// draft only, the discount in the form's price (after the others, floored at 0, converted at the day's rates),
// and the use limit under concurrent placements.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createPlacedOrder, createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { readSession } from "../../server/accounts/session";
import { systemScope, type Scope } from "../../server/scope";
import { consumeVoucher, verifyVoucher, VOUCHER_GUESSES_PER_10_MINUTES } from "../../server/vouchers";
import { applyVoucher, removeVoucher } from "../../server/order-form";
import { createVoucher, deactivateVoucher } from "../../server/staff/vouchers";
import { findOrderForm, priceForm } from "../../server/order-form";
import type { StaffVoucherInput } from "../../app/common/vouchers/schemas";

let t: TestContext;
let staffScope: Scope;
beforeAll(async () => {
  t = await createTestContext();
  const staff = await createStaff(t.ctx);
  staffScope = systemScope(t.ctx, { userId: staff.id, lang: "en", localization: "US", session: await readSession(t.ctx.db, staff.token) });
});
afterAll(async () => t.close());

let n = 0;
async function voucher(input: Partial<StaffVoucherInput> = {}): Promise<string> {
  const r = await createVoucher(staffScope, { kind: "percent", percent: "10", code: `TEST-${Date.now()}-${n++}`, ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return r.value.code;
}
const errorOf = (r: { ok: boolean; error?: string }) => (r.ok ? null : r.error);

describe("verifyVoucher", () => {
  it("finds a code trimmed, in any case, percent-encoded", async () => {
    const user = await createResearcher(t.ctx);
    const code = await voucher({ code: "Spring-Sale-25", description: "Spring" });
    expect(code).toBe("SPRING-SALE-25");
    for (const typed of ["  spring-sale-25 ", "SPRING-SALE-25", "spring%2Dsale%2D25", "%20Spring-Sale-25%20"]) {
      const r = await verifyVoucher(scopeFor(t.ctx, user), typed);
      expect(r.ok && r.value.voucher, typed).toMatchObject({ code: "SPRING-SALE-25", percent: 10, amount: null, description: "Spring" });
    }
  });

  it("refuses an empty, unknown, inactive, expired or used-up code, and accounts without vouchers", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    expect(errorOf(await verifyVoucher(scope, "   "))).toBe("voucher-code-empty");
    expect(errorOf(await verifyVoucher(scope, "NO-SUCH-CODE"))).toBe("voucher-not-found");
    const inactive = await voucher();
    const row = await t.ctx.db.selectFrom("vouchers").select("id").where("code", "=", inactive).executeTakeFirstOrThrow();
    expect((await deactivateVoucher(staffScope, row.id)).ok).toBe(true);
    expect(errorOf(await verifyVoucher(scope, inactive))).toBe("voucher-inactive");
    const today = new Date().toISOString().slice(0, 10);
    const expiring = await voucher({ validUntil: today });
    expect((await verifyVoucher(scope, expiring)).ok).toBe(true);
    expect(errorOf(await verifyVoucher(scope, expiring, new Date(Date.now() + 2 * 24 * 3600 * 1000)))).toBe("voucher-expired");
    const once = await voucher({ maxUses: "1" });
    expect(await consumeVoucher(t.ctx.db, { voucher_code: once })).toBe(true);
    expect(errorOf(await verifyVoucher(scope, once))).toBe("voucher-used-up");
    await t.ctx.db.updateTable("users").set({ voucher_available: false }).where("id", "=", user.id).execute();
    expect(errorOf(await verifyVoucher(scope, await voucher()))).toBe("voucher-not-available");
  });
  it("closes verification to a user who guesses too many unknown codes, known codes included", async () => {
    const guesser = scopeFor(t.ctx, await createResearcher(t.ctx));
    const known = await voucher();
    expect((await verifyVoucher(guesser, known)).ok).toBe(true);
    for (let i = 0; i < VOUCHER_GUESSES_PER_10_MINUTES; i++)
      expect(errorOf(await verifyVoucher(guesser, `GUESS-${i}`))).toBe("voucher-not-found");
    const closed = await verifyVoucher(guesser, known);
    expect(errorOf(closed)).toBe("too-many-requests");
    expect(!closed.ok && Number(closed.details?.retryAfterSeconds)).toBeGreaterThan(0);
    // Another user is not affected.
    expect((await verifyVoucher(scopeFor(t.ctx, await createResearcher(t.ctx)), known)).ok).toBe(true);
  });
});

describe("applying a voucher", () => {
  it("discounts the draft's price after the other discounts, and comes off again", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Voucher" });
    const before = (await priceForm(scope, form))!;
    const code = await voucher({ percent: "15" });
    const r = await applyVoucher(scope, form.id, code.toLowerCase());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.form.voucher_code).toBe(code);
    expect(r.value.form.version).toBe(form.version + 1);
    const after = (await priceForm(scope, r.value.form))!;
    const line = after.discounts.find((d) => d.kind === "Voucher");
    expect(line).toMatchObject({ code, applied: true, percentBased: true, amount: 15, descriptionKey: "catalogue:discounts.voucher" });
    expect(line!.appliedAmount).toBe(Math.round((before.total * 15) / 100));
    expect(after.total).toBe(before.total - line!.appliedAmount);
    // The lines are not changed: the voucher pays part of the total, it does not discount a service.
    expect(after.lineItems).toEqual(before.lineItems);
    const removed = await removeVoucher(scope, form.id);
    expect(removed.ok && removed.value.voucher_code).toBeNull();
    expect((await priceForm(scope, removed.ok ? removed.value : form))!.total).toBe(before.total);
  });

  it("floors the amount payable at 0, and converts a fixed amount in another currency at the day's rate", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Big voucher" });
    const big = await voucher({ kind: "amount", amount: "100000", currencyIso: "USD" });
    const r = await applyVoucher(scope, form.id, big);
    const price = (await priceForm(scope, r.ok ? r.value.form : form))!;
    expect(price.total).toBe(0);
    expect(price.discounts.find((d) => d.kind === "Voucher")!.appliedAmount).toBe(
      price.subtotal - price.lineItems.reduce((s, l) => s + l.discountAmount, 0),
    );
    // 10.00 EUR at 0.92 EUR per USD on a USD order: 10.87 USD.
    const euros = await voucher({ kind: "amount", amount: "10.00", currencyIso: "EUR" });
    const e = await applyVoucher(scope, form.id, euros);
    const converted = (await priceForm(scope, e.ok ? e.value.form : form))!;
    expect(converted.discounts.find((d) => d.kind === "Voucher")).toMatchObject({ code: euros, appliedAmount: 1087, percentBased: false });
  });

  it("writes to the user's own draft only", async () => {
    const user = await createResearcher(t.ctx);
    const other = await createResearcher(t.ctx);
    const code = await voucher();
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Mine" });
    expect(errorOf(await applyVoucher(scopeFor(t.ctx, other), form.id, code))).toBe("not-found");
    expect(errorOf(await removeVoucher(scopeFor(t.ctx, other), form.id))).toBe("not-found");
    expect(errorOf(await applyVoucher(scopeFor(t.ctx, user), "not-a-form-id", code))).toBe("not-found");
    const placed = await createPlacedOrder(t.ctx, user);
    expect(errorOf(await applyVoucher(scopeFor(t.ctx, user), placed.orderFormId, code))).toBe("order-form-placed");
    expect(errorOf(await removeVoucher(scopeFor(t.ctx, user), placed.orderFormId))).toBe("order-form-placed");
    // A refused code leaves the form as it was.
    expect(errorOf(await applyVoucher(scopeFor(t.ctx, user), form.id, "NO-SUCH-CODE"))).toBe("voucher-not-found");
    const row = await findOrderForm(t.ctx.db, form.id, { userId: user.id, draftKey: null });
    expect(row?.voucher_code).toBeNull();
    expect(row?.version).toBe(form.version);
  });
});

describe("consumeVoucher", () => {
  it("gives a voucher with one use to one of five concurrent placements", async () => {
    const code = await voucher({ maxUses: "1" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.ctx.db.transaction().execute((trx) => consumeVoucher(trx, { voucher_code: code }))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const row = await t.ctx.db.selectFrom("vouchers").select("times_used").where("code", "=", code).executeTakeFirstOrThrow();
    expect(row.times_used).toBe(1);
  });

  it("counts every use of an unlimited voucher, none of a form without one, and refuses a deactivated one", async () => {
    const code = await voucher();
    for (let i = 0; i < 3; i++) expect(await consumeVoucher(t.ctx.db, { voucher_code: code.toLowerCase() })).toBe(true);
    const row = await t.ctx.db.selectFrom("vouchers").select(["id", "times_used"]).where("code", "=", code).executeTakeFirstOrThrow();
    expect(row.times_used).toBe(3);
    expect(await consumeVoucher(t.ctx.db, { voucher_code: null })).toBe(true);
    await deactivateVoucher(staffScope, row.id);
    expect(await consumeVoucher(t.ctx.db, { voucher_code: code })).toBe(false);
  });
});
