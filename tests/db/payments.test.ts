// The payments service (issue 12, ADR 034) on a real database with the built-in provider sandboxes: the wizard
// charges first and places after, a decline leaves the form a draft, one charge however often it is submitted,
// paying many invoices at once, and provider events checked before anything moves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { PaymentSubmission } from "#common/payments/types";
import { paymentSubmission } from "../helpers/payments";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createResearcher, scopeFor } from "../helpers/factories";
import { applyProviderEvent, findPayment, payInvoices } from "../../server/payments";
import { payOrderForm } from "../../server/orders/pay";
import { applyVoucher } from "../../server/order-form";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

// A nonce is used once (like the hosted fields' nonces): each card submission brings its own.
const submission = (over: Partial<PaymentSubmission> = {}): PaymentSubmission =>
  paymentSubmission(PAYMENT_METHOD.creditCard, { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, ...over });

async function readyForm(user: { id: number }) {
  return createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: `Payments ${randomUUID().slice(0, 6)}` });
}

const paymentsOfForm = (formId: string) => t.ctx.db.selectFrom("payments").selectAll().where("order_form_id", "=", formId).execute();

describe("paying an order form", () => {
  it("charges a card, then places the order whose invoice the payment settles", async () => {
    const user = await createResearcher(t.ctx);
    const form = await readyForm(user);
    const r = await payOrderForm(scopeFor(t.ctx, user), form, submission(), randomUUID());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe("succeeded");
    expect(r.value.redirectUrl).toMatch(/^\/en\/researcher\/index\/details\/RS\d+\/thank-you$/);
    const order = await t.ctx.db.selectFrom("orders").selectAll().where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    expect(order.paid).toBe(true);
    const invoice = await t.ctx.db.selectFrom("invoices").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect([invoice.status, Number(invoice.balance)]).toEqual(["paid", 0]);
    const [payment] = await paymentsOfForm(form.id);
    expect([payment.status, Number(payment.amount), payment.sandbox]).toEqual(["succeeded", Number(order.total), true]);
    const ledger = await t.ctx.db.selectFrom("invoice_payments").selectAll().where("invoice_number", "=", invoice.number).execute();
    expect(ledger).toHaveLength(1);
    expect([ledger[0].payment_id, Number(ledger[0].amount), ledger[0].payment_method_id]).toEqual([payment.id, Number(order.total), 3]);
  });

  it("keeps the order form a draft and charges nothing when the card is declined", async () => {
    const user = await createResearcher(t.ctx);
    const form = await readyForm(user);
    const r = await payOrderForm(scopeFor(t.ctx, user), form, submission({ nonce: "fake-processor-declined-visa-nonce" }), randomUUID());
    expect(r.ok ? null : r.error).toBe("payment-declined");
    expect(r.ok ? "" : String(r.details?.message)).not.toBe("");
    const row = await t.ctx.db.selectFrom("order_forms").select("status").where("id", "=", form.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("draft");
    expect(await t.ctx.db.selectFrom("orders").select("id").where("order_form_id", "=", form.id).execute()).toHaveLength(0);
    const payments = await paymentsOfForm(form.id);
    expect(payments.map((p) => p.status)).toEqual(["failed"]);
    // The researcher tries again with a good card: the same form becomes the order.
    const again = await payOrderForm(scopeFor(t.ctx, user), form, submission(), randomUUID());
    expect(again.ok && again.value.status).toBe("succeeded");
  });

  it("charges once and places one order for 50 concurrent submits with one key, and for 10 with different keys", async () => {
    const user = await createResearcher(t.ctx);
    const form = await readyForm(user);
    const key = randomUUID();
    const one = submission();
    const answers = await Promise.all(Array.from({ length: 50 }, () => payOrderForm(scopeFor(t.ctx, user), form, one, key)));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(new Set(answers.map((a) => (a.ok ? a.value.redirectUrl : null))).size).toBe(1);
    expect(await paymentsOfForm(form.id)).toHaveLength(1);

    const form2 = await readyForm(user);
    const many = await Promise.all(
      Array.from({ length: 10 }, () => payOrderForm(scopeFor(t.ctx, user), form2, submission(), randomUUID())),
    );
    const charged = (await paymentsOfForm(form2.id)).filter((p) => p.status === "succeeded");
    expect(charged).toHaveLength(1);
    expect(await t.ctx.db.selectFrom("orders").select("id").where("order_form_id", "=", form2.id).execute()).toHaveLength(1);
    // Every other submit was told the form is being paid or shown the placed order, never charged.
    for (const a of many) if (!a.ok) expect(["payment-in-progress", "order-form-placed"]).toContain(a.error);
  });

  it("refuses the same key with other parameters", async () => {
    const user = await createResearcher(t.ctx);
    const form = await readyForm(user);
    const key = randomUUID();
    await payOrderForm(scopeFor(t.ctx, user), form, submission({ nonce: "fake-processor-declined-visa-nonce" }), key);
    const other = await payOrderForm(scopeFor(t.ctx, user), form, submission(), key);
    expect(other.ok ? null : other.error).toBe("idempotency-key-reused");
  });
});

describe("vouchers when placing", () => {
  it("makes a voucher that covers the order the method, and gives a one-use voucher to one of two orders placed at once", async () => {
    await t.ctx.db.insertInto("vouchers").values({ code: "PAYALL-1", percent: 100, max_uses: 1 }).execute();
    const [a, b] = [await createResearcher(t.ctx), await createResearcher(t.ctx)];
    const forms = [];
    for (const user of [a, b]) {
      const applied = await applyVoucher(scopeFor(t.ctx, user), (await readyForm(user)).id, " payall-1 ");
      expect(applied.ok).toBe(true);
      if (applied.ok) forms.push({ user, form: applied.value.form });
    }
    const results = await Promise.all(
      forms.map(({ user, form }) =>
        payOrderForm(scopeFor(t.ctx, user), form, submission({ paymentMethodId: PAYMENT_METHOD.voucher, nonce: null }), randomUUID()),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? null : r.error))).toEqual(["voucher-used-up"]);
    const placed = await t.ctx.db
      .selectFrom("orders")
      .select(["total", "paid", "payment_method_id"])
      .where(
        "order_form_id",
        "in",
        forms.map((f) => f.form.id),
      )
      .execute();
    expect(placed.map((o) => [Number(o.total), o.paid, o.payment_method_id])).toEqual([[0, true, PAYMENT_METHOD.voucher]]);
  });
});

describe("paying invoices", () => {
  it("pays several invoices with one card payment, crediting each its balance", async () => {
    const user = await createResearcher(t.ctx);
    const a = await createInvoice(t.ctx, user);
    const b = await createInvoice(t.ctx, user);
    const numbers = [a.invoice.number, b.invoice.number];
    const r = await payInvoices(scopeFor(t.ctx, user), numbers, submission(), randomUUID());
    expect(r.ok && r.value.status).toBe("succeeded");
    expect(r.ok && r.value.redirectUrl).toBe("/en/researcher/invoices/unpaid/success");
    const invoices = await t.ctx.db.selectFrom("invoices").select(["status", "balance"]).where("number", "in", numbers).execute();
    expect(invoices.map((i) => [i.status, Number(i.balance)])).toEqual([
      ["paid", 0],
      ["paid", 0],
    ]);
    const payments = await t.ctx.db.selectFrom("payments").selectAll().where("user_id", "=", user.id).execute();
    expect(payments).toHaveLength(1);
    expect(Number(payments[0].amount)).toBe(Number(a.invoice.amount) + Number(b.invoice.amount));
    // Paid invoices cannot be paid again; another user's invoice is not found.
    const again = await payInvoices(scopeFor(t.ctx, user), numbers, submission(), randomUUID());
    expect(again.ok ? null : again.error).toBe("invoice-already-paid");
    const stranger = await createResearcher(t.ctx);
    const theirs = await createInvoice(t.ctx, stranger);
    const r2 = await payInvoices(scopeFor(t.ctx, user), [theirs.invoice.number], submission(), randomUUID());
    expect(r2.ok ? null : r2.error).toBe("not-found");
  });

  it("pays invoices of two currencies in USD at the day's rate and records the rate on each ledger row", async () => {
    const user = await createResearcher(t.ctx);
    const usd = await createInvoice(t.ctx, user);
    const eur = await createInvoice(t.ctx, user, { currencyIso: "EUR" });
    const r = await payInvoices(scopeFor(t.ctx, user), [usd.invoice.number, eur.invoice.number], submission(), randomUUID());
    expect(r.ok && r.value.status).toBe("succeeded");
    const payment = (await t.ctx.db.selectFrom("payments").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow())!;
    expect(payment.currency_iso).toBe("USD");
    expect(Number(payment.amount)).toBeGreaterThan(Number(usd.invoice.amount));
    const eurRow = await t.ctx.db
      .selectFrom("invoice_payments")
      .selectAll()
      .where("invoice_number", "=", eur.invoice.number)
      .executeTakeFirstOrThrow();
    expect([Number(eurRow.amount), eurRow.currency_iso, eurRow.paid_currency_iso]).toEqual([Number(eur.invoice.amount), "EUR", "USD"]);
  });
});

describe("provider events", () => {
  it("settles a pending payment once on a matching event and rejects mismatched or unknown ones", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const amount = Number(invoice.amount);
    const pending = await t.ctx.db
      .insertInto("payments")
      .values({
        user_id: user.id,
        purpose: "invoices",
        invoice_numbers: JSON.stringify([invoice.number]),
        method_id: PAYMENT_METHOD.alipay,
        provider: "alipay",
        status: "pending",
        amount,
        currency_iso: "USD",
        provider_ref: "ALI-REF-1",
        details: JSON.stringify({ allocations: [{ invoiceNumber: invoice.number, amount }] }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const event = {
      eventId: "evt-1",
      reference: pending.id,
      providerRef: "ALI-REF-1",
      outcome: "succeeded" as const,
      amount,
      currencyIso: "USD",
    };
    for (const forged of [
      { ...event, eventId: "evt-x1", amount: amount - 1 },
      { ...event, eventId: "evt-x2", currencyIso: "CNY" },
      { ...event, eventId: "evt-x3", providerRef: "OTHER" },
      { ...event, eventId: "evt-x4", reference: randomUUID() },
    ]) {
      const r = await applyProviderEvent(t.ctx, "alipay", forged, "notification");
      expect(r.ok).toBe(false);
    }
    expect(await applyProviderEvent(t.ctx, "wechat", event, "notification")).toMatchObject({ ok: false });
    expect((await findPayment(t.ctx, pending.id))!.status).toBe("pending");
    const first = await applyProviderEvent(t.ctx, "alipay", event, "notification");
    expect(first.ok && first.value.changed).toBe(true);
    const replay = await applyProviderEvent(t.ctx, "alipay", event, "notification");
    expect(replay.ok && replay.value.changed).toBe(false);
    const ledger = await t.ctx.db.selectFrom("invoice_payments").select("id").where("invoice_number", "=", invoice.number).execute();
    expect(ledger).toHaveLength(1);
    const rejected = await t.ctx.db.selectFrom("payment_events").select("outcome").where("kind", "=", "rejected").execute();
    expect(rejected.length).toBeGreaterThanOrEqual(5);
  });
});
