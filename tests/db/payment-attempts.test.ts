// Payment attempts that cannot take money twice or lose it (issue 21 §2–§3, ADR 051), on a real database with the
// providers' sandboxes: one open attempt per invoice, a capture beyond what is due becomes the researcher's
// overpayment credit, a refund comes off that surplus and leaves the invoice paid unless staff re-open it, a
// declined card spends no balance, a balance asked for and gone refuses the payment, a key reused with another
// body is refused after the payment too, and 50 concurrent attempts capture an invoice's amount once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { PaymentSubmission } from "#common/payments/types";
import { captureOpenPaypalOrders, paymentSubmission } from "../helpers/payments";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { seedCredit, seedPrepayment } from "../helpers/balances";
import { applyProviderEvent, payInvoices, replayedInvoicesPayment } from "../../server/payments";
import { payOrderForm } from "../../server/orders/pay";
import { refundPayment } from "../../server/payments/refund";
import { balancesFor } from "../../server/payments/balances";
import { recordBankPayment } from "../../server/billing/invoices/payments";
import { systemScope, type Scope } from "../../server/scope";
import { readSession } from "../../server/accounts/session";

let t: TestContext;
let staffScope: Scope;
beforeAll(async () => {
  t = await createTestContext();
  const staff = await createStaff(t.ctx);
  staffScope = systemScope(t.ctx, { userId: staff.id, lang: "en", localization: "US", session: await readSession(t.ctx.db, staff.token) });
});
afterAll(async () => t.close());

const card = (over: Partial<PaymentSubmission> = {}): PaymentSubmission =>
  paymentSubmission(PAYMENT_METHOD.creditCard, { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, ...over });
const invoiceRow = (n: string) => t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", n).executeTakeFirstOrThrow();
const paymentsOf = (userId: number) =>
  t.ctx.db.selectFrom("payments").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();

/** A card payment the provider accepted but has not confirmed yet (as a 3-D Secure or a settlement would leave it). */
async function pendingCardPayment(userId: number, invoiceNumber: string, amount: number) {
  return t.ctx.db
    .insertInto("payments")
    .values({
      user_id: userId,
      purpose: "invoices",
      invoice_numbers: JSON.stringify([invoiceNumber]),
      method_id: PAYMENT_METHOD.creditCard,
      provider: "card",
      status: "pending",
      amount,
      currency_iso: "USD",
      provider_ref: `tx${randomUUID().slice(0, 8)}`,
      details: JSON.stringify({ allocations: [{ invoiceNumber, amount }] }),
    })
    .returning(["id", "provider_ref"])
    .executeTakeFirstOrThrow();
}

describe("one open attempt per invoice", () => {
  it("refuses a second attempt while one is pending, naming the pending one", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const paypal = await payInvoices(scopeFor(t.ctx, user), [invoice.number], paymentSubmission(PAYMENT_METHOD.paypal), randomUUID());
    expect(paypal.ok && paypal.value.status).toBe("pending");
    const pendingId = paypal.ok ? paypal.value.paymentId : null;
    const again = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card(), randomUUID());
    expect(again.ok ? null : [again.error, again.details?.paymentId, again.details?.url]).toEqual([
      "payment-pending",
      pendingId,
      `/en/researcher/payment/${pendingId}`,
    ]);
    expect((await paymentsOf(user.id)).map((p) => p.status)).toEqual(["pending"]);
    expect(Number((await invoiceRow(invoice.number)).balance)).toBe(Number(invoice.amount));
  });
});

describe("overpayment and refunds", () => {
  it("credits a late capture to the researcher as an overpayment; a refund takes it back and leaves the invoice paid", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const amount = Number(invoice.amount);
    const late = await pendingCardPayment(user.id, invoice.number, amount);
    // The invoice is paid otherwise meanwhile (a bank transfer staff record), then the card capture arrives.
    const bank = await recordBankPayment(t.ctx, { userId: null }, invoice.number, {
      amount: (amount / 100).toFixed(2),
      reference: `BANK-${randomUUID().slice(0, 6)}`,
      receivedOn: new Date().toISOString().slice(0, 10),
    });
    expect(bank.ok).toBe(true);
    const event = {
      eventId: `evt-${randomUUID()}`,
      reference: late.id,
      providerRef: late.provider_ref!,
      outcome: "succeeded" as const,
      amount,
      currencyIso: "USD",
    };
    const settled = await applyProviderEvent(t.ctx, "card", event, "notification");
    expect(settled.ok && settled.value.payment.status).toBe("succeeded");
    const payment = settled.ok ? settled.value.payment : null;
    expect(payment?.details.overpayments?.map((o) => [o.currencyIso, o.amount])).toEqual([["USD", amount]]);
    const movement = await t.ctx.db
      .selectFrom("balance_movements")
      .selectAll()
      .where("payment_id", "=", late.id)
      .where("kind", "=", "overpayment")
      .executeTakeFirstOrThrow();
    expect(Number(movement.amount)).toBe(amount);
    const credit = await t.ctx.db.selectFrom("credits").selectAll().where("id", "=", movement.credit_id!).executeTakeFirstOrThrow();
    expect(credit.kind).toBe("overpayment");
    // The researcher sees it as their balance.
    expect((await balancesFor(scopeFor(t.ctx, user), "USD"))?.credits).toBe(amount);

    // Staff refund the duplicate: it comes off the surplus; the invoice and the order stay paid.
    const refunded = await refundPayment(staffScope, late.id, amount, "Duplicate");
    expect(refunded.ok && refunded.value.status).toBe("refunded");
    expect(refunded.ok && refunded.value.details.refunds?.[0]).toMatchObject({ amount, fromSurplus: amount, reopened: [] });
    const after = await invoiceRow(invoice.number);
    expect([after.status, Number(after.balance)]).toEqual(["paid", 0]);
    const o = await t.ctx.db.selectFrom("orders").select("paid").where("id", "=", invoice.order_id).executeTakeFirstOrThrow();
    expect(o.paid).toBe(true);
    expect((await balancesFor(scopeFor(t.ctx, user), "USD"))?.credits ?? 0).toBe(0);
  });

  it("re-opens the invoice on a refund only when staff choose to", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const amount = Number(invoice.amount);
    const paid = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card(), randomUUID());
    const id = paid.ok ? paid.value.paymentId! : "";
    const part = await refundPayment(staffScope, id, 100, "Goodwill");
    expect(part.ok).toBe(true);
    expect([(await invoiceRow(invoice.number)).status, Number((await invoiceRow(invoice.number)).balance)]).toEqual(["paid", 0]);
    const reopened = await refundPayment(staffScope, id, 200, "Wrong amount", { reopen: true });
    expect(reopened.ok).toBe(true);
    const row = await invoiceRow(invoice.number);
    expect([row.status, Number(row.balance)]).toEqual(["unpaid", 200]);
    expect(amount).toBeGreaterThan(300);
  });
});

describe("balances with a charge", () => {
  it("spends no credits when the card is declined", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    await seedCredit(t.ctx, user.id, 1500);
    const declined = await payInvoices(
      scopeFor(t.ctx, user),
      [invoice.number],
      card({ nonce: "fake-processor-declined-visa-nonce", useCredits: true }),
      randomUUID(),
    );
    expect(declined.ok ? null : declined.error).toBe("payment-declined");
    expect((await balancesFor(scopeFor(t.ctx, user), "USD"))?.credits).toBe(1500);
    expect(Number((await invoiceRow(invoice.number)).balance)).toBe(Number(invoice.amount));
    // The next attempt with a good card spends them, once.
    const good = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card({ useCredits: true }), randomUUID());
    expect(good.ok && good.value.status).toBe("succeeded");
    expect((await balancesFor(scopeFor(t.ctx, user), "USD"))?.credits ?? 0).toBe(0);
    const row = await invoiceRow(invoice.number);
    expect([row.status, Number(row.balance)]).toEqual(["paid", 0]);
    const payments = await paymentsOf(user.id);
    expect(payments.map((p) => [p.status, Number(p.amount)])).toEqual([
      ["failed", Number(invoice.amount) - 1500],
      ["succeeded", Number(invoice.amount) - 1500],
    ]);
  });

  it("refuses payments whose prepayment was spent by another one at the same moment", async () => {
    const user = await createResearcher(t.ctx);
    await seedPrepayment(t.ctx, user.id, 30000);
    const invoices = await Promise.all(Array.from({ length: 10 }, () => createInvoice(t.ctx, user)));
    expect(invoices.every((i) => Number(i.invoice.amount) > 10000)).toBe(true);
    const answers = await Promise.all(
      invoices.map((i) =>
        payInvoices(scopeFor(t.ctx, user), [i.invoice.number], card({ prepayOption: "partialPayment", prepayAmount: "100" }), randomUUID()),
      ),
    );
    const okCount = answers.filter((a) => a.ok).length;
    expect(okCount).toBe(3);
    expect(answers.filter((a) => !a.ok).map((a) => (a.ok ? null : a.error))).toEqual(Array(7).fill("balance-unavailable"));
    // Nothing charged for the refused ones; every succeeded payment had its 100 USD.
    const payments = await paymentsOf(user.id);
    expect(payments).toHaveLength(3);
    expect(payments.every((p) => (p.details as { prepaymentApplied?: number }).prepaymentApplied === 10000)).toBe(true);
  });
});

describe("orders asking for one prepayment at once", () => {
  it("places 3 of 10 orders each asking 100 USD of a 300 USD prepayment, and refuses the other 7 with nothing charged", async () => {
    const user = await createResearcher(t.ctx);
    await seedPrepayment(t.ctx, user.id, 30000);
    const forms = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: `Race ${i}` })),
    );
    const answers = await Promise.all(
      forms.map((f) => payOrderForm(scopeFor(t.ctx, user), f, card({ prepayOption: "partialPayment", prepayAmount: "100" }), randomUUID())),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
    expect(answers.filter((a) => !a.ok).map((a) => (a.ok ? null : a.error))).toEqual(Array(7).fill("balance-unavailable"));
    const orders = await t.ctx.db.selectFrom("orders").select("id").where("user_id", "=", user.id).execute();
    expect(orders).toHaveLength(3);
    const charged = (await paymentsOf(user.id)).filter((p) => p.status === "succeeded");
    expect(charged).toHaveLength(3);
    const spends = await t.ctx.db
      .selectFrom("balance_movements")
      .select(["amount"])
      .where("user_id", "=", user.id)
      .where("kind", "=", "spend")
      .execute();
    expect(spends.map((m) => Number(m.amount))).toEqual([-10000, -10000, -10000]);
  });
});

describe("idempotency keys", () => {
  it("refuses the same key with another body after the invoice is paid", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const key = randomUUID();
    const fields = { paymentMethodId: "3", nonce: "fake-valid-nonce~abcdefgh12345678", acceptTerms: "yes" };
    const first = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card({ nonce: fields.nonce }), key, fields);
    expect(first.ok).toBe(true);
    const same = await replayedInvoicesPayment(scopeFor(t.ctx, user), [invoice.number], key, fields);
    expect(same?.ok).toBe(true);
    const other = await replayedInvoicesPayment(scopeFor(t.ctx, user), [invoice.number], key, { ...fields, paymentMethodId: "6" });
    expect(other?.ok ? null : other?.error).toBe("idempotency-key-reused");
  });
});

describe("concurrent attempts", () => {
  it("captures one invoice's amount once for 50 concurrent attempts by card and PayPal, with and without shared keys", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const shared = randomUUID();
    const sharedCard = card();
    // Two waves, as tabs opened one after another: PayPal orders first, then cards and PayPal mixed.
    const attempt = (i: number) =>
      i % 5 === 0
        ? payInvoices(scopeFor(t.ctx, user), [invoice.number], sharedCard, shared)
        : payInvoices(scopeFor(t.ctx, user), [invoice.number], i % 2 ? card() : paymentSubmission(PAYMENT_METHOD.paypal), randomUUID());
    const first = await Promise.all(
      Array.from({ length: 25 }, () =>
        payInvoices(scopeFor(t.ctx, user), [invoice.number], paymentSubmission(PAYMENT_METHOD.paypal), randomUUID()),
      ),
    );
    const answers = [...first, ...(await Promise.all(Array.from({ length: 25 }, (_, i) => attempt(i))))];
    expect(answers.some((a) => a.ok)).toBe(true);
    // Every PayPal order left open is then approved and captured (the payer's other tabs).
    await captureOpenPaypalOrders(t.ctx, user.id);
    const payments = await paymentsOf(user.id);
    const captured = payments.filter((p) => p.status === "succeeded").reduce((a, p) => a + Number(p.amount), 0);
    expect(captured).toBe(Number(invoice.amount));
    const ledger = await t.ctx.db.selectFrom("invoice_payments").select("amount").where("invoice_number", "=", invoice.number).execute();
    expect(ledger.reduce((a, r) => a + Number(r.amount), 0)).toBe(captured);
    const surplus = await t.ctx.db
      .selectFrom("balance_movements")
      .select("id")
      .where("user_id", "=", user.id)
      .where("kind", "=", "overpayment")
      .execute();
    expect(surplus).toHaveLength(0);
  });
});
