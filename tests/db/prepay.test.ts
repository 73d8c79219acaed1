// Prepayments (issue 13 §1, ADR 040) on a real database: the minimum per currency, a card prepayment deposited
// once however often it is settled, a bank-transfer prepayment unpaid (nothing spendable) until staff record the
// transfer, a repeated reference recorded once, and another user's retainer invoice not found.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { bankTransferSubmission, cardSubmission } from "../helpers/prepay";
import { payPrepayment } from "../../server/prepay/payment";
import { applyProviderEvent, findPayment } from "../../server/payments";
import { userBalances } from "../../server/billing";
import { loadPrepayData, ownUnpaidRetainer, prepayForm, recordRetainerTransfer, retainerInvoicePdf } from "../../server/prepay";
import { PAYMENT_METHOD } from "../../app/common/payments/methods";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const retainersOf = (userId: number) =>
  t.ctx.db.selectFrom("invoices").selectAll().where("user_id", "=", userId).where("kind", "=", "prepayment").execute();
const depositsOf = (number: string) =>
  t.ctx.db
    .selectFrom("balance_movements")
    .selectAll()
    .where("retainer_invoice_number", "=", number)
    .where("kind", "=", "deposit")
    .execute();

describe("issuing a prepayment", () => {
  it("refuses less than the configured minimum of the user's currency (default 100) with the price formatted", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const low = await payPrepayment(scope, { amount: "99.99" }, cardSubmission(), randomUUID());
    expect(low.ok).toBe(false);
    if (low.ok) return;
    expect(low.fieldErrors).toEqual({ amount: "prepay:errors.amount-minimum" });
    expect(low.details?.price).toBe("$100");
    await t.ctx.config.setConfig("prepayMinimums", { USD: 250 });
    try {
      const r = await payPrepayment(scope, { amount: "200" }, cardSubmission(), randomUUID());
      expect(!r.ok && r.details?.price).toBe("$250");
    } finally {
      await t.ctx.config.setConfig("prepayMinimums", {});
    }
    for (const bad of ["abc", "-5", "1e9", "100.001", "99999999999", "1\u0000"]) {
      const r = await payPrepayment(scope, { amount: bad }, cardSubmission(), randomUUID());
      expect(!r.ok && r.fieldErrors.amount).toBe("prepay:errors.amount-invalid");
    }
    expect(await retainersOf(user.id)).toEqual([]);
  });

  it("a card prepayment issues PUS…, is paid by the sandbox and deposited once even if settled twice", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const r = await payPrepayment(scope, { amount: "500" }, cardSubmission(), randomUUID());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe("succeeded");
    expect(r.value.redirectUrl).toBe("/en/researcher/prepay/complete/success");
    const [retainer] = await retainersOf(user.id);
    expect(retainer.number).toMatch(/^PUS\d{6,}$/);
    expect([retainer.status, Number(retainer.amount), Number(retainer.balance), retainer.currency_iso.trim(), retainer.lang]).toEqual([
      "paid",
      50000,
      0,
      "USD",
      "en",
    ]);
    expect(retainer.paid_at).not.toBeNull();
    const payment = (await findPayment(t.ctx, r.value.paymentId!))!;
    expect([payment.purpose, payment.status, payment.details.retainerInvoiceNumber]).toEqual(["prepay", "succeeded", retainer.number]);
    // The provider's notification of the same sale arrives after: nothing moves a second time.
    const again = await applyProviderEvent(
      t.ctx,
      "card",
      {
        reference: payment.id,
        providerRef: payment.providerRef!,
        amount: payment.amount,
        currencyIso: "USD",
        outcome: "succeeded",
        eventId: `evt-${randomUUID()}`,
      },
      "notification",
    );
    expect(again.ok && again.value.changed).toBe(false);
    expect(await depositsOf(retainer.number)).toHaveLength(1);
    const ledger = await t.ctx.db.selectFrom("invoice_payments").selectAll().where("invoice_number", "=", retainer.number).execute();
    expect(ledger.map((l) => [Number(l.amount), l.payment_id])).toEqual([[50000, payment.id]]);
    const balances = await userBalances(t.ctx.db, user.id);
    expect(balances.prepayments.map((p) => [p.number, p.available])).toEqual([[retainer.number, 50000]]);
    const page = await loadPrepayData(scope);
    expect(page?.totalBalance).toBe(50000);
  });

  it("a declined card leaves nothing owed: the new retainer invoice is voided", async () => {
    const user = await createResearcher(t.ctx);
    const r = await payPrepayment(
      scopeFor(t.ctx, user),
      { amount: "300" },
      cardSubmission({ nonce: "fake-processor-declined-visa-nonce" }),
      randomUUID(),
    );
    expect(!r.ok && r.error).toBe("payment-declined");
    const [retainer] = await retainersOf(user.id);
    expect(retainer.status).toBe("void");
    expect((await loadPrepayData(scopeFor(t.ctx, user)))?.prepayments).toEqual([]);
  });

  it("one retainer invoice for one idempotency key however often it is submitted", async () => {
    const user = await createResearcher(t.ctx);
    const key = randomUUID();
    const s = bankTransferSubmission();
    const answers = await Promise.all(Array.from({ length: 5 }, () => payPrepayment(scopeFor(t.ctx, user), { amount: "150" }, s, key)));
    const urls = new Set(answers.map((a) => (a.ok ? a.value.redirectUrl : a.error)));
    expect(urls.size).toBe(1);
    expect(await retainersOf(user.id)).toHaveLength(1);
  });
});

describe("bank transfer prepayments", () => {
  it("issue the retainer unpaid with nothing spendable until staff record the transfer; a repeated reference records once", async () => {
    const user = await createResearcher(t.ctx);
    const staff = await createStaff(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const r = await payPrepayment(scope, { amount: "500" }, bankTransferSubmission({ purchaseOrder: "PO-77" }), randomUUID());
    expect(r.ok).toBe(true);
    const [retainer] = await retainersOf(user.id);
    expect(r.ok && r.value.redirectUrl).toBe(`/en/researcher/prepay/${retainer.number}?issued=1`);
    expect([retainer.status, Number(retainer.balance), retainer.method_id, retainer.purchase_order]).toEqual(["unpaid", 50000, 9, "PO-77"]);
    expect((await userBalances(t.ctx.db, user.id)).prepayments).toEqual([]);
    const before = await loadPrepayData(scope);
    expect(before?.prepayments.map((p) => [p.retainerInvoiceNumber, p.status, p.availablePrepaymentAmount])).toEqual([
      [retainer.number, "unpaid", 0],
    ]);
    expect(before?.totalBalance).toBe(0);

    const staffScope = scopeFor(t.ctx, staff);
    const bad = await recordRetainerTransfer(staffScope, retainer.number, { amount: "600", reference: "BANK-1", receivedOn: "2026-01-05" });
    expect(!bad.ok && bad.fieldErrors.amount).toBe("staffops:errors.amount-exceeds-balance");
    const badDate = await recordRetainerTransfer(staffScope, retainer.number, {
      amount: "100",
      reference: "BANK-1",
      receivedOn: "2026-02-30",
    });
    expect(!badDate.ok && badDate.fieldErrors.receivedOn).toBe("staffops:errors.invalid-date");
    const part = await recordRetainerTransfer(staffScope, retainer.number, {
      amount: "200",
      reference: "BANK-1",
      receivedOn: "2026-01-05",
    });
    expect(part.ok && part.value).toEqual({ duplicate: false, balance: 30000, deposited: false });
    const repeat = await recordRetainerTransfer(staffScope, retainer.number, {
      amount: "200",
      reference: "BANK-1",
      receivedOn: "2026-01-05",
    });
    expect(repeat.ok && repeat.value.duplicate).toBe(true);
    expect(await depositsOf(retainer.number)).toHaveLength(0);
    const rest = await recordRetainerTransfer(staffScope, retainer.number, {
      amount: "300.00",
      reference: "BANK-2",
      receivedOn: "2026-01-06",
    });
    expect(rest.ok && rest.value).toEqual({ duplicate: false, balance: 0, deposited: true });
    expect(await depositsOf(retainer.number)).toHaveLength(1);
    const after = await loadPrepayData(scope);
    expect(after?.totalBalance).toBe(50000);
    expect(after?.prepayments[0]).toMatchObject({ status: "paid", availablePrepaymentAmount: 50000, balance: 0, fapiaoAvailable: false });
    const paid = await recordRetainerTransfer(staffScope, retainer.number, { amount: "1", reference: "BANK-3", receivedOn: "2026-01-06" });
    expect(!paid.ok && paid.error).toBe("invoice-already-paid");
  });

  it("an existing unpaid retainer invoice is paid by card for its balance", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    await payPrepayment(scope, { amount: "120" }, bankTransferSubmission(), randomUUID());
    const [retainer] = await retainersOf(user.id);
    // Already billed by transfer: its page offers the methods that pay at once, and a transfer again is refused.
    const form = await prepayForm(scope, { retainerInvoiceNumber: retainer.number });
    const offered = form.ok ? form.value.data.methods.map((m) => m.id) : [];
    expect(offered).toContain(PAYMENT_METHOD.creditCard);
    expect(offered).not.toContain(PAYMENT_METHOD.bankTransfer);
    const transferAgain = await payPrepayment(scope, { retainerInvoiceNumber: retainer.number }, bankTransferSubmission(), randomUUID());
    expect(!transferAgain.ok && transferAgain.error).toBe("payment-method-required");
    const r = await payPrepayment(scope, { retainerInvoiceNumber: retainer.number }, cardSubmission(), randomUUID());
    expect(r.ok && r.value.status).toBe("succeeded");
    const payment = await findPayment(t.ctx, (r.ok && r.value.paymentId) || "");
    expect(payment?.amount).toBe(12000);
    expect((await retainersOf(user.id))[0].status).toBe("paid");
    const again = await payPrepayment(scope, { retainerInvoiceNumber: retainer.number }, cardSubmission(), randomUUID());
    expect(!again.ok && again.error).toBe("not-found");
  });
});

describe("ownership", () => {
  it("another user's retainer invoice is not found: pay, page, PDF, staff are the only others who see it", async () => {
    const owner = await createResearcher(t.ctx);
    const other = await createResearcher(t.ctx);
    await payPrepayment(scopeFor(t.ctx, owner), { amount: "100" }, bankTransferSubmission(), randomUUID());
    const [retainer] = await retainersOf(owner.id);
    const otherScope = scopeFor(t.ctx, other);
    const pay = await payPrepayment(otherScope, { retainerInvoiceNumber: retainer.number }, cardSubmission(), randomUUID());
    expect(!pay.ok && pay.error).toBe("not-found");
    expect((await ownUnpaidRetainer(otherScope, retainer.number)).ok).toBe(false);
    const pdf = await retainerInvoicePdf(otherScope, retainer.number);
    expect(!pdf.ok && pdf.error).toBe("not-found");
    const own = await retainerInvoicePdf(scopeFor(t.ctx, owner), retainer.number);
    expect(own.ok && own.value.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await retainersOf(owner.id))[0].status).toBe("unpaid");
  });

  it("prepay off or invoices hidden: nothing is issued", async () => {
    const user = await createResearcher(t.ctx);
    await t.ctx.config.setFlag("prepay_enabled", false);
    try {
      const r = await payPrepayment(scopeFor(t.ctx, user), { amount: "500" }, cardSubmission(), randomUUID());
      expect(!r.ok && r.error).toBe("not-allowed");
    } finally {
      await t.ctx.config.setFlag("prepay_enabled", true);
    }
    await t.ctx.db.updateTable("users").set({ hide_invoices: true }).where("id", "=", user.id).execute();
    const hidden = await payPrepayment(scopeFor(t.ctx, user), { amount: "500" }, cardSubmission(), randomUUID());
    expect(!hidden.ok && hidden.error).toBe("not-allowed");
    expect(await retainersOf(user.id)).toEqual([]);
  });
});

describe("the currency chooser", () => {
  it("saves a selectable currency once; CNY and unknown codes are refused", async () => {
    const { chooseCurrency } = await import("../../server/prepay");
    const user = await createResearcher(t.ctx);
    await t.ctx.db.updateTable("users").set({ currency_chosen: false }).where("id", "=", user.id).execute();
    const scope = scopeFor(t.ctx, user);
    for (const iso of ["CNY", "XXX", "us"]) {
      const r = await chooseCurrency(scope, iso);
      expect(!r.ok && r.fieldErrors.currencyIso).toBe("prepay:errors.currency-invalid");
    }
    const [a, b] = await Promise.all([chooseCurrency(scope, "GBP"), chooseCurrency(scope, "JPY")]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const loser = a.ok ? b : a;
    expect(!loser.ok && loser.error).toBe("currency-change-not-allowed");
    const row = await t.ctx.db
      .selectFrom("users")
      .select(["currency_iso", "currency_chosen"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.currency_chosen).toBe(true);
    expect([a.ok ? "GBP" : "JPY"]).toEqual([row.currency_iso.trim()]);
  });
});
