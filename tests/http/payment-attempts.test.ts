// Payment attempts over HTTP (issue 21 §2–§3, ADR 051), without JavaScript: a second attempt while a PayPal order
// waits is refused by the API (409 payment-pending with the pending page) and the pay page sends the researcher
// to the pending payment; the same Idempotency-Key with another body is 422 after the invoice is paid; the staff
// payment page shows the overpayment and where it went, and its refund form re-opens the invoice only when asked.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, signIn, type Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createInvoice, createResearcher } from "../helpers/factories";
import { PAYMENT_METHOD } from "#common/payments/methods";

let portal: TestPortal;
let staff: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal({ PAYMENTS_MODE: "sandbox" });
  staff = await portal.staff();
});
afterAll(async () => portal.stop());

const payoff = (c: Client, body: unknown, key: string) =>
  c.request("/api/payoff/payment", {
    method: "POST",
    headers: { "content-type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(body),
  });

async function bodyFor(numbers: string[], methodId: number) {
  const country = await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
  return {
    paymentMethodId: methodId,
    acceptedTermsAndConditions: true,
    additionalData: { payoffReceiptCodes: numbers },
    billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: country.id } },
    ...(methodId === PAYMENT_METHOD.creditCard
      ? { creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" } }
      : {}),
  };
}

describe("one open attempt per invoice", () => {
  it("refuses a card payment while a PayPal order waits, and the pay page sends the researcher to it", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await signIn(portal, user);
    const { invoice } = await createInvoice(portal.ctx, user);
    const first = await payoff(c, await bodyFor([invoice.number], PAYMENT_METHOD.paypal), randomUUID());
    expect(first.status).toBe(200);
    const pendingId = (await first.json()).payment.paymentId as string;
    const second = await payoff(c, await bodyFor([invoice.number], PAYMENT_METHOD.creditCard), randomUUID());
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({
      error: "payment-pending",
      paymentId: pendingId,
      url: `/en/researcher/payment/${pendingId}`,
    });
    const page = await c.get(`/en/researcher/invoices/pay/${invoice.number}`);
    expect([page.status, page.headers.get("location")]).toEqual([303, `/en/researcher/payment/${pendingId}`]);
    const list = await (await c.get("/en/researcher/invoices")).text();
    expect(list).toContain(`/en/researcher/payment/${pendingId}`);
    expect(list).toContain("Continue the pending payment");
  });

  it("refuses the same key with another body after the invoice is paid (422)", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await signIn(portal, user);
    const { invoice } = await createInvoice(portal.ctx, user);
    const key = randomUUID();
    const body = await bodyFor([invoice.number], PAYMENT_METHOD.creditCard);
    expect((await payoff(c, body, key)).status).toBe(200);
    expect((await payoff(c, body, key)).status).toBe(200);
    const other = await payoff(c, { ...body, paymentMethodId: PAYMENT_METHOD.paypal }, key);
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ error: "idempotency-key-reused" });
  });
});

describe("the staff payment page", () => {
  it("shows the overpayment and where it went; the refund keeps the invoice paid unless re-opening is ticked", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await signIn(portal, user);
    const { invoice } = await createInvoice(portal.ctx, user);
    const amount = Number(invoice.amount);
    // A late capture: a PayPal order opened in one tab, the invoice paid by card meanwhile (the order was set
    // aside for that moment, as one opened before the one-attempt rule would have been), then the PayPal order
    // is approved and captured.
    const paypal = await payoff(c, await bodyFor([invoice.number], PAYMENT_METHOD.paypal), randomUUID());
    const paypalId = (await paypal.json()).payment.paymentId as string;
    await portal.ctx.db.updateTable("payments").set({ status: "cancelled" }).where("id", "=", paypalId).execute();
    const card = await payoff(c, await bodyFor([invoice.number], PAYMENT_METHOD.creditCard), randomUUID());
    expect(card.status).toBe(200);
    await portal.ctx.db.updateTable("payments").set({ status: "pending" }).where("id", "=", paypalId).execute();
    // The payer approves the PayPal order in the first tab: the sandbox's approval, then the return captures it.
    const approve = await c.post(`/en/payment-sandbox/paypal/${paypalId}`, { intent: "approve" });
    const back = approve.headers.get("location") ?? "";
    const returned = await c.get(back.replace(/^https?:\/\/[^/]+/, ""));
    expect(returned.status).toBeLessThan(400);
    const row = await portal.ctx.db
      .selectFrom("payments")
      .select(["status", "details"])
      .where("id", "=", paypalId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("succeeded");
    const page = await (await staff.client.get(`/en/staff/payments/${paypalId}`)).text();
    expect(page).toMatch(/Overpayment/);
    expect(page).toMatch(/credited to the researcher as credit CR\d+/);
    expect(page).toContain('name="reopen"');
    const refund = await staff.client.post(`/en/staff/payments/${paypalId}`, {
      intent: "refund",
      amount: (amount / 100).toFixed(2),
      reason: "Duplicate",
    });
    expect(refund.status).toBe(303);
    const inv = await portal.ctx.db
      .selectFrom("invoices")
      .select(["status", "balance"])
      .where("number", "=", invoice.number)
      .executeTakeFirstOrThrow();
    expect([inv.status, Number(inv.balance)]).toEqual(["paid", 0]);
  });
});
