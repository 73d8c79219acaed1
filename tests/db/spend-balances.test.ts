// Spending prepaid and credit balances on payments (issue 13, ADR 041) on a real database: the provider is
// charged only the remainder and the balances go on the invoice through the ledger; balances covering all
// call no provider; a partial amount above the maximum is refused; credits worth less than 1 are not usable;
// hidden invoices hide balances; the expiry job's function closes what is left.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { PaymentSubmission } from "#common/payments/types";
import { paymentSubmission } from "../helpers/payments";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { seedCredit, seedPrepayment } from "../helpers/balances";
import { payInvoices } from "../../server/payments";
import { orderPaymentForm, payOrderForm } from "../../server/orders/pay";
import { balancesFor, dashboardBalance, planBalances, spendOnInvoices } from "../../server/payments/balances";
import { balancesOfUser } from "../../server/billing";
import { invalidateCatalogue } from "../../server/catalogue/load";
import { offeredMethodIds } from "../../server/payments/offer";
import { userBalances } from "../../server/billing";
import { expireBalancesJob } from "../../server/billing/ledger/jobs";
import { grantCourtesyCredit } from "../../server/staff/credits";
import { systemScope } from "../../server/scope";
import { readSession } from "../../server/accounts/session";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const card = (over: Partial<PaymentSubmission> = {}): PaymentSubmission =>
  paymentSubmission(PAYMENT_METHOD.creditCard, { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, ...over });

const readyForm = (user: { id: number }) =>
  createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: `Balances ${randomUUID().slice(0, 6)}` });

const spendRows = (userId: number) =>
  t.ctx.db.selectFrom("balance_movements").selectAll().where("user_id", "=", userId).where("kind", "=", "spend").orderBy("id").execute();

describe("an order paid partly from a prepayment, the rest by card", () => {
  it("charges the provider the remainder once; the invoice has two ledger rows and is paid", async () => {
    const user = await createResearcher(t.ctx);
    const retainer = await seedPrepayment(t.ctx, user.id, 5000);
    const form = await readyForm(user);
    const scope = scopeFor(t.ctx, user);
    const { price, data } = await orderPaymentForm(scope, form, { useCredits: false, prepayOption: "partialPayment", prepayAmount: "20" });
    const total = price!.total;
    expect(total).toBeGreaterThan(2000);
    expect(data.balances?.prepayment).toBe(5000);
    expect(data.balances?.applied.prepayment).toBe(2000);
    expect(data.total).toBe(total - 2000);

    const r = await payOrderForm(scope, form, card({ prepayOption: "partialPayment", prepayAmount: "20" }), randomUUID());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe("succeeded");
    const payments = await t.ctx.db.selectFrom("payments").selectAll().where("order_form_id", "=", form.id).execute();
    expect(payments).toHaveLength(1);
    expect([payments[0].status, Number(payments[0].amount)]).toEqual(["succeeded", total - 2000]);
    expect(payments[0].details).toMatchObject({ prepaymentApplied: 2000, creditsApplied: 0 });
    const events = await t.ctx.db
      .selectFrom("payment_events")
      .selectAll()
      .where("payment_id", "=", payments[0].id)
      .where("kind", "=", "create")
      .execute();
    expect(events).toHaveLength(1);

    const order = await t.ctx.db.selectFrom("orders").selectAll().where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    const invoice = await t.ctx.db.selectFrom("invoices").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect([invoice.status, Number(invoice.balance), order.paid]).toEqual(["paid", 0, true]);
    const ledger = await t.ctx.db
      .selectFrom("invoice_payments")
      .selectAll()
      .where("invoice_number", "=", invoice.number)
      .orderBy("id")
      .execute();
    expect(ledger.map((l) => [l.payment_method_id, Number(l.amount)])).toEqual([
      [PAYMENT_METHOD.credits, 2000],
      [PAYMENT_METHOD.creditCard, total - 2000],
    ]);
    const spends = await spendRows(user.id);
    expect(spends.map((s) => [s.retainer_invoice_number, Number(s.amount), s.invoice_number])).toEqual([[retainer, -2000, invoice.number]]);
    expect((await userBalances(t.ctx.db, user.id)).prepayments[0].available).toBe(3000);
  });

  it("refuses a partial amount above the maximum, non-numeric or negative, and charges nothing", async () => {
    const user = await createResearcher(t.ctx);
    await seedPrepayment(t.ctx, user.id, 1000);
    const form = await readyForm(user);
    const scope = scopeFor(t.ctx, user);
    for (const [amount, code] of [
      ["10.01", "prepay-amount-exceeds"],
      ["abc", "prepay-amount-invalid"],
      ["-5", "prepay-amount-invalid"],
      ["0", "prepay-amount-invalid"],
      ["99999999999999999", "prepay-amount-invalid"],
    ]) {
      const r = await payOrderForm(scope, form, card({ prepayOption: "partialPayment", prepayAmount: amount }), randomUUID());
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error).toBe(code);
      expect(r.fieldErrors.prepayAmount).toBe(`payment:errors.${code}`);
    }
    expect(await t.ctx.db.selectFrom("payments").select("id").where("order_form_id", "=", form.id).execute()).toHaveLength(0);
    expect(await spendRows(user.id)).toHaveLength(0);
    const { balanceErrors } = await orderPaymentForm(scope, form, {
      useCredits: false,
      prepayOption: "partialPayment",
      prepayAmount: "10.01",
    });
    expect(balanceErrors).toEqual({ prepayAmount: "payment:errors.prepay-amount-exceeds" });
  });

  it("places the order with no provider when the prepayment covers it (method free)", async () => {
    const user = await createResearcher(t.ctx);
    await seedPrepayment(t.ctx, user.id, 10_000_000);
    const form = await readyForm(user);
    const scope = scopeFor(t.ctx, user);
    const { data } = await orderPaymentForm(scope, form, { useCredits: false, prepayOption: "fullPayment", prepayAmount: null });
    expect(data.total).toBe(0);
    expect(data.methods.map((m) => m.id)).toEqual([PAYMENT_METHOD.free]);
    // A card is not offered once nothing is left to pay.
    const refused = await payOrderForm(scope, form, card({ prepayOption: "fullPayment" }), randomUUID());
    expect(refused.ok ? null : refused.error).toBe("payment-method-required");
    const r = await payOrderForm(scope, form, paymentSubmission(PAYMENT_METHOD.free, { prepayOption: "fullPayment" }), randomUUID());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.paymentId).toBeNull();
    expect(r.value.prepaymentApplied).toBeGreaterThan(0);
    const order = await t.ctx.db.selectFrom("orders").selectAll().where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    expect(order.paid).toBe(true);
    expect(await t.ctx.db.selectFrom("payments").select("id").where("order_form_id", "=", form.id).execute()).toHaveLength(0);
  });
});

describe("invoices paid from credits", () => {
  it("pays invoices fully from credits with no provider, the credits method offered", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const balance = Number(invoice.balance);
    await seedCredit(t.ctx, user.id, balance + 500);
    const scope = scopeFor(t.ctx, user);
    expect(await offeredMethodIds(scope, { purpose: "invoices", total: balance, currencyIso: "USD" })).toContain(PAYMENT_METHOD.credits);
    const r = await payInvoices(scope, [invoice.number], paymentSubmission(PAYMENT_METHOD.credits), randomUUID());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([r.value.paymentId, r.value.creditsApplied]).toEqual([null, balance]);
    const after = await t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", invoice.number).executeTakeFirstOrThrow();
    expect([after.status, Number(after.balance)]).toEqual(["paid", 0]);
    expect(await t.ctx.db.selectFrom("payments").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
    expect((await userBalances(t.ctx.db, user.id)).credits[0].available).toBe(500);
  });

  it("spends on the caller's transaction alone, a cold catalogue cache too: no second client while the invoice is locked", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    await seedCredit(t.ctx, user.id, 1500);
    await invalidateCatalogue(t.ctx.cache);
    // Any query outside the transaction would need a second client while this one holds the invoice's lock: a pool
    // filled with the lock's other waiters never gives it, nor does PGlite's one connection (ADR 048).
    const outside = new Proxy(t.ctx.db, {
      get() {
        throw new Error("a second database client asked for while the invoice is locked");
      },
    });
    const applied = await t.ctx.db.transaction().execute((trx) =>
      spendOnInvoices(
        trx,
        { db: outside, cache: t.ctx.cache },
        {
          userId: user.id,
          invoiceNumbers: [invoice.number],
          credits: 1500,
          prepayment: 0,
          payCurrency: "USD",
          actor: { userId: user.id },
        },
      ),
    );
    expect(applied).toMatchObject({ credits: 1500, prepayment: 0 });
  });

  it("charges the card only what credits leave, both on the invoice", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const balance = Number(invoice.balance);
    await seedCredit(t.ctx, user.id, 1500);
    const r = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card({ useCredits: true }), randomUUID());
    expect(r.ok && r.value.status).toBe("succeeded");
    const [payment] = await t.ctx.db.selectFrom("payments").selectAll().where("user_id", "=", user.id).execute();
    expect(Number(payment.amount)).toBe(balance - 1500);
    expect(payment.details).toMatchObject({ creditsApplied: 1500 });
    const ledger = await t.ctx.db
      .selectFrom("invoice_payments")
      .selectAll()
      .where("invoice_number", "=", invoice.number)
      .orderBy("id")
      .execute();
    expect(ledger.map((l) => Number(l.amount))).toEqual([1500, balance - 1500]);
  });

  it("does not count credits worth less than 1 in the user's currency", async () => {
    const user = await createResearcher(t.ctx);
    await seedCredit(t.ctx, user.id, 99);
    const scope = scopeFor(t.ctx, user);
    expect(await balancesFor(scope, "USD")).toBeNull();
    expect(await offeredMethodIds(scope, { purpose: "order", total: 5000, currencyIso: "USD" })).not.toContain(PAYMENT_METHOD.credits);
    await seedCredit(t.ctx, user.id, 1);
    expect((await balancesFor(scope, "USD"))?.credits).toBe(100);
  });
});

describe("plan", () => {
  const available = { credits: 1000, prepayment: 3000, currency: { isoCode: "USD", sign: "$", numDecimals: 2 } };
  it("applies credits first, then prepayment up to what is left, floored at 0", () => {
    const full = planBalances(available, 3500, { useCredits: true, prepayOption: "fullPayment", prepayAmount: null });
    expect(full.ok && [full.value.applied, full.value.payable, full.value.prepayMax]).toEqual([
      { credits: 1000, prepayment: 2500 },
      0,
      2500,
    ]);
    const partial = planBalances(available, 3500, { useCredits: true, prepayOption: "partialPayment", prepayAmount: "25" });
    expect(partial.ok && partial.value.payable).toBe(0);
    const over = planBalances(available, 3500, { useCredits: true, prepayOption: "partialPayment", prepayAmount: "25.01" });
    expect(over.ok ? null : over.fieldErrors).toEqual({ prepayAmount: "payment:errors.prepay-amount-exceeds" });
    const none = planBalances(available, 3500, { useCredits: false, prepayOption: "none", prepayAmount: "abc" });
    expect(none.ok && none.value.payable).toBe(3500);
  });

  it("refuses a typed amount with more decimals than the currency's instead of reading a thousand as one (ADR 054)", () => {
    // "1.000" in reais is a thousand to a Brazilian; the partial amount used to cut it to R$1,00, and "1,000" yen to ¥1.
    const reais = { credits: 0, prepayment: 500000, currency: { isoCode: "BRL", sign: "R$", numDecimals: 2 } };
    const partial = (available: typeof reais, prepayAmount: string) =>
      planBalances(available, 400000, { useCredits: false, prepayOption: "partialPayment", prepayAmount });
    for (const typed of ["1.000", "1.000,00", "10.500"]) {
      const r = partial(reais, typed);
      expect(r.ok ? r.value.applied : r.fieldErrors, typed).toEqual({ prepayAmount: "payment:errors.prepay-amount-invalid" });
    }
    const yen = { credits: 0, prepayment: 500000, currency: { isoCode: "JPY", sign: "¥", numDecimals: 0 } };
    const r = partial(yen, "1,000");
    expect(r.ok ? r.value.applied : r.fieldErrors).toEqual({ prepayAmount: "payment:errors.prepay-amount-invalid" });
    // What the form always took still passes: a comma or a dot with the currency's decimals.
    const ok = partial(reais, "1000,5");
    expect(ok.ok && ok.value.applied).toEqual({ credits: 0, prepayment: 100050 });
    const whole = partial(yen, "1000");
    expect(whole.ok && whole.value.applied).toEqual({ credits: 0, prepayment: 1000 });
  });
});

describe("hideInvoices", () => {
  it("hides balances from the form, the dashboard, the API and the credits method", async () => {
    const user = await createResearcher(t.ctx);
    await seedCredit(t.ctx, user.id, 5000);
    await seedPrepayment(t.ctx, user.id, 5000);
    const scope = scopeFor(t.ctx, user);
    expect((await dashboardBalance(scope))?.amount).toBe(10000);
    expect((await balancesOfUser(scope)).credits).toHaveLength(1);
    await t.ctx.db.updateTable("users").set({ hide_invoices: true }).where("id", "=", user.id).execute();
    expect(await dashboardBalance(scope)).toBeNull();
    expect(await balancesFor(scope, "USD")).toBeNull();
    expect(await balancesOfUser(scope)).toEqual({ credits: [], prepayments: [], usdCredits: 0 });
    expect(await offeredMethodIds(scope, { purpose: "order", total: 5000, currencyIso: "USD" })).not.toContain(PAYMENT_METHOD.credits);
    const form = await readyForm(user);
    expect((await orderPaymentForm(scope, form)).data.balances).toBeNull();
  });
});

describe("staff courtesy credits and expiry", () => {
  it("grants a credit with an audit row; researchers cannot; the expiry job closes an expired one", async () => {
    const staff = await createStaff(t.ctx);
    const user = await createResearcher(t.ctx);
    const staffScope = systemScope(t.ctx, {
      userId: staff.id,
      lang: "en",
      localization: "US",
      session: await readSession(t.ctx.db, staff.token),
    });
    const bad = await grantCourtesyCredit(staffScope, { email: user.email, amount: "-3" });
    expect(bad.ok ? null : bad.fieldErrors).toEqual({ amount: "credits:errors.amount-invalid" });
    const r = await grantCourtesyCredit(staffScope, {
      email: user.email.toUpperCase(),
      amount: "12.50",
      validityDays: "1",
      note: "Sorry for the delay",
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const audit = await t.ctx.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "staff.credit.grant")
      .where("target_id", "=", r.value.referenceNumber)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].actor_user_id).toBe(staff.id);
    const denied = await grantCourtesyCredit(scopeFor(t.ctx, user), { email: user.email, amount: "5" });
    expect(denied.ok ? null : denied.error).toBe("not-allowed");
    expect((await userBalances(t.ctx.db, user.id)).credits.map((c) => c.available)).toEqual([1250]);

    await t.ctx.db
      .updateTable("credits")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("reference_number", "=", r.value.referenceNumber)
      .execute();
    await expireBalancesJob.handler({}, { ctx: t.ctx } as never);
    const rows = await t.ctx.db
      .selectFrom("balance_movements")
      .select(["kind", "amount"])
      .where("user_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(rows.map((m) => [m.kind, Number(m.amount)])).toEqual([
      ["deposit", 1250],
      ["expire", -1250],
    ]);
    const next = await t.ctx.db
      .selectFrom("jobs")
      .select("run_at")
      .where("kind", "=", "expire-balances")
      .where("status", "=", "queued")
      .execute();
    expect(next.length).toBeGreaterThan(0);
  });
});
