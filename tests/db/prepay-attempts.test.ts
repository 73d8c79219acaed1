// Money moves once on the prepay path too (issue 21 §2, house rule 5): a retainer invoice paid from two tabs,
// by 50 concurrent submits of mixed methods and keys, or by a PayPal order still pending at the provider when
// staff record the bank transfer, collects its amount once; money beyond it is a visible overpayment credit,
// never a second deposit of the prepayment and never lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { captureOpenPaypalOrders, paymentSubmission } from "../helpers/payments";
import { bankTransferSubmission, cardSubmission } from "../helpers/prepay";
import { payPrepayment } from "../../server/prepay/payment";
import { userBalances } from "../../server/billing";
import { recordRetainerTransfer } from "../../server/prepay";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const paymentsOf = (userId: number) =>
  t.ctx.db.selectFrom("payments").selectAll().where("user_id", "=", userId).where("purpose", "=", "prepay").execute();
const movementsOf = (userId: number, kind: "deposit" | "overpayment") =>
  t.ctx.db.selectFrom("balance_movements").selectAll().where("user_id", "=", userId).where("kind", "=", kind).execute();

/** A researcher with an unpaid 500 USD retainer invoice (issued for a bank transfer, as the prepay page does). */
async function unpaidRetainer() {
  const user = await createResearcher(t.ctx);
  const issued = await payPrepayment(scopeFor(t.ctx, user), { amount: "500" }, bankTransferSubmission(), randomUUID());
  expect(issued.ok).toBe(true);
  const retainer = await t.ctx.db
    .selectFrom("invoices")
    .selectAll()
    .where("user_id", "=", user.id)
    .where("kind", "=", "prepayment")
    .executeTakeFirstOrThrow();
  expect([retainer.status, Number(retainer.balance)]).toEqual(["unpaid", 50000]);
  return { user, number: retainer.number };
}

describe("paying one retainer invoice more than once at a time", () => {
  it("a second tab is sent to the PayPal order already open instead of starting another", async () => {
    const { user, number } = await unpaidRetainer();
    const first = await payPrepayment(
      scopeFor(t.ctx, user),
      { retainerInvoiceNumber: number },
      paymentSubmission(PAYMENT_METHOD.paypal),
      randomUUID(),
    );
    expect(first.ok && first.value.status).toBe("pending");
    const second = await payPrepayment(scopeFor(t.ctx, user), { retainerInvoiceNumber: number }, cardSubmission(), randomUUID());
    expect(!second.ok && second.error).toBe("payment-pending");
    expect(!second.ok && second.details?.url).toMatch(/\/payment\//);
    expect((await paymentsOf(user.id)).filter((p) => p.provider === "card")).toEqual([]);
  });

  it("50 concurrent submits by card and PayPal, with and without shared keys, collect the amount once and deposit it once", async () => {
    const { user, number } = await unpaidRetainer();
    const shared = randomUUID();
    const sharedCard = cardSubmission();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        payPrepayment(
          scopeFor(t.ctx, user),
          { retainerInvoiceNumber: number },
          i % 5 === 0 ? sharedCard : i % 2 ? cardSubmission() : paymentSubmission(PAYMENT_METHOD.paypal),
          i % 5 === 0 ? shared : randomUUID(),
        ),
      ),
    );
    expect(answers.some((a) => a.ok)).toBe(true);
    // Every refusal is one a researcher can act on, never an error of the server.
    for (const a of answers)
      if (!a.ok) expect(["payment-pending", "payment-in-progress", "invoice-already-paid", "not-found"]).toContain(a.error);
    await captureOpenPaypalOrders(t.ctx, user.id);
    const captured = (await paymentsOf(user.id)).filter((p) => p.status === "succeeded").reduce((a, p) => a + Number(p.amount), 0);
    expect(captured).toBe(50000);
    expect((await movementsOf(user.id, "deposit")).map((m) => Number(m.amount))).toEqual([50000]);
    expect(await movementsOf(user.id, "overpayment")).toEqual([]);
    const retainer = await t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
    expect([retainer.status, Number(retainer.balance)]).toEqual(["paid", 0]);
  });

  it("a PayPal order still pending when staff record the transfer: its capture becomes a visible overpayment credit", async () => {
    const { user, number } = await unpaidRetainer();
    const pending = await payPrepayment(
      scopeFor(t.ctx, user),
      { retainerInvoiceNumber: number },
      paymentSubmission(PAYMENT_METHOD.paypal),
      randomUUID(),
    );
    expect(pending.ok && pending.value.status).toBe("pending");
    const staff = await createStaff(t.ctx);
    const recorded = await recordRetainerTransfer(scopeFor(t.ctx, staff), number, {
      amount: "500",
      reference: `TR-${randomUUID().slice(0, 8)}`,
      receivedOn: new Date().toISOString().slice(0, 10),
    });
    expect(recorded.ok && recorded.value.deposited).toBe(true);
    await captureOpenPaypalOrders(t.ctx, user.id);
    // The prepayment is deposited once; the late capture is the researcher's as an overpayment credit.
    expect((await movementsOf(user.id, "deposit")).map((m) => Number(m.amount))).toEqual([50000]);
    expect((await movementsOf(user.id, "overpayment")).map((m) => Number(m.amount))).toEqual([50000]);
    const balances = await userBalances(t.ctx.db, user.id);
    const total = [...balances.prepayments, ...balances.credits].reduce((a, b) => a + b.available, 0);
    expect(total).toBe(100000);
    const [paypal] = (await paymentsOf(user.id)).filter((p) => p.provider === "paypal");
    expect(paypal.status).toBe("succeeded");
    expect((paypal.details as { overpayments?: { amount: number }[] }).overpayments?.map((o) => o.amount)).toEqual([50000]);
  });
});
