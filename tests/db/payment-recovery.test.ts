// Recovery of payment attempts nobody is finishing (issue 21 §3, ADR 051) on a real database with the card and
// PayPal sandboxes: an attempt left `processing` by a dead process (its lease lapsed) is asked about at the
// provider and settled once when the provider took the money, or failed (and its held balances released) when it
// never did; a PayPal order nobody approved, and an abandoned QR code whose provider cannot be asked, are cancelled
// past their time; the job chain is scheduled at boot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { paymentSubmission } from "../helpers/payments";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createResearcher, scopeFor } from "../helpers/factories";
import { seedCredit } from "../helpers/balances";
import { payInvoices } from "../../server/payments";
import { balancesFor } from "../../server/payments/balances";
import { getProvider } from "../../server/payments/providers";
import { recoverPayments } from "../../server/payments/recover";
import { recoverPaymentsJob, schedulePaymentHousekeeping } from "../../server/payments/jobs";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const card = () => paymentSubmission(PAYMENT_METHOD.creditCard, { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}` });
const invoiceRow = (n: string) => t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", n).executeTakeFirstOrThrow();
const paymentRow = (id: string) => t.ctx.db.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** What a process that died mid-payment leaves: the attempt `processing`, its lease lapsed. */
async function deadAttempt(userId: number, invoiceNumber: string, amount: number) {
  return t.ctx.db
    .insertInto("payments")
    .values({
      user_id: userId,
      purpose: "invoices",
      invoice_numbers: JSON.stringify([invoiceNumber]),
      method_id: PAYMENT_METHOD.creditCard,
      provider: "card",
      status: "processing",
      lease_until: new Date(Date.now() - 1000),
      amount,
      currency_iso: "USD",
      details: JSON.stringify({ allocations: [{ invoiceNumber, amount }] }),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

describe("recovering attempts", () => {
  it("settles once an attempt whose process died after the provider took the money", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const amount = Number(invoice.amount);
    const attempt = await deadAttempt(user.id, invoice.number, amount);
    // The provider charged it (the process died before it could record the answer).
    const sale = await getProvider(t.ctx, "card").charge({
      paymentId: attempt.id,
      amount,
      currencyIso: "USD",
      numDecimals: 2,
      description: invoice.number,
      lang: "en",
      payer: { name: "R", email: "r@example.org" },
      returnUrl: "http://x/",
      cancelUrl: "http://x/",
      notifyUrl: "http://x/",
      nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`,
    });
    expect(sale.status).toBe("succeeded");
    // The invoice refuses other attempts while the dead one is unresolved.
    const blocked = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card(), randomUUID());
    expect(blocked.ok ? null : blocked.error).toBe("payment-in-progress");
    const first = await recoverPayments(t.ctx);
    expect(first.settled).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(attempt.id)).status).toBe("succeeded");
    const row = await invoiceRow(invoice.number);
    expect([row.status, Number(row.balance)]).toEqual(["paid", 0]);
    await recoverPayments(t.ctx);
    const ledger = await t.ctx.db.selectFrom("invoice_payments").select("amount").where("invoice_number", "=", invoice.number).execute();
    expect(ledger.map((l) => Number(l.amount))).toEqual([amount]);
  });

  it("fails an attempt the provider never charged, releasing its held credits: the invoice is payable again", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    await seedCredit(t.ctx, user.id, 1000);
    // An attempt with credits held (made as a PayPal order holds them), then left as a card attempt whose
    // process died before the card was charged: the card sandbox has no sale for it.
    const paid = await payInvoices(
      scopeFor(t.ctx, user),
      [invoice.number],
      paymentSubmission(PAYMENT_METHOD.paypal, { useCredits: true }),
      randomUUID(),
    );
    expect(paid.ok && paid.value.status).toBe("pending");
    const id = paid.ok ? paid.value.paymentId! : "";
    await t.ctx.db
      .updateTable("payments")
      .set({ status: "processing", provider: "card", method_id: PAYMENT_METHOD.creditCard, lease_until: new Date(Date.now() - 1000) })
      .where("id", "=", id)
      .execute();
    expect((await balancesFor(scopeFor(t.ctx, user), "USD"))?.credits ?? 0).toBe(0);
    const r = await recoverPayments(t.ctx);
    expect(r.failed).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(id)).status).toBe("failed");
    expect((await balancesFor(scopeFor(t.ctx, user), "USD"))?.credits).toBe(1000);
    const again = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card(), randomUUID());
    expect(again.ok && again.value.status).toBe("succeeded");
  });

  it("cancels a PayPal order nobody approved once past its time, and leaves a fresh one", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const paid = await payInvoices(scopeFor(t.ctx, user), [invoice.number], paymentSubmission(PAYMENT_METHOD.paypal), randomUUID());
    const id = paid.ok ? paid.value.paymentId! : "";
    await recoverPayments(t.ctx);
    expect((await paymentRow(id)).status).toBe("pending");
    await recoverPayments(t.ctx, new Date(Date.now() + 4 * 3600_000));
    expect((await paymentRow(id)).status).toBe("cancelled");
  });

  it("cancels an abandoned Alipay QR (no lookup) past its time, so the invoice can be paid again", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const amount = Number(invoice.amount);
    // A QR code shown and never scanned: the attempt waits `pending`; the Alipay sandbox cannot be asked about it.
    const abandoned = await t.ctx.db
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
        details: JSON.stringify({ allocations: [{ invoiceNumber: invoice.number, amount }] }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const blocked = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card(), randomUUID());
    expect(blocked.ok ? null : blocked.error).toBe("payment-pending");
    // Within its time it is left alone; past it, it ends and the invoice is payable again.
    await recoverPayments(t.ctx);
    expect((await paymentRow(abandoned.id)).status).toBe("pending");
    await recoverPayments(t.ctx, new Date(Date.now() + 4 * 3600_000));
    expect((await paymentRow(abandoned.id)).status).toBe("cancelled");
    const paid = await payInvoices(scopeFor(t.ctx, user), [invoice.number], card(), randomUUID());
    expect(paid.ok && paid.value.status).toBe("succeeded");
    expect((await invoiceRow(invoice.number)).status).toBe("paid");
  });

  it("schedules the recovery chain with the payment housekeeping", async () => {
    await schedulePaymentHousekeeping(t.ctx);
    const jobs = await t.ctx.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", recoverPaymentsJob.kind)
      .where("status", "=", "queued")
      .execute();
    expect(jobs.length).toBeGreaterThanOrEqual(1);
  });
});
