// Test modes are explicit (issue 21 defect 8, §3, ADR 053). A production-like portal (NODE_ENV=production,
// SEED_DEMO=false, no PAYMENTS_MODE, no provider credentials) offers no card or PayPal, on the payment forms or
// through the API, and its /healthz names no test mode; a sandbox portal's /healthz names every provider in test
// mode. A sandbox's page acts only for the signed-in payer: a stranger (signed in or not) gets 404 and cannot
// approve someone else's PayPal payment; staff may look but not approve; the owner approves without JavaScript.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { Client, startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createInvoice, createOrderFormFor, createResearcher } from "../helpers/factories";
import { findPayment } from "../../server/payments";

let live: TestPortal;
let sandbox: TestPortal;
beforeAll(async () => {
  [live, sandbox] = await Promise.all([
    startRelaxedPortal({ NODE_ENV: "production", SEED_DEMO: "false", PUBLIC_URL: "https://portal.example", PAYMENTS_MODE: undefined }),
    startRelaxedPortal({ PAYMENTS_MODE: "sandbox" }),
  ]);
}, 120_000);
afterAll(async () => Promise.all([live?.stop(), sandbox?.stop()]));

const { creditCard: CARD, paypal: PAYPAL, bankTransfer: BANK } = PAYMENT_METHOD;
const offered = (html: string) => [...html.matchAll(/name="paymentMethodId"[^>]*value="(\d+)"/g)].map((m) => Number(m[1]));
const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const health = async (portal: TestPortal) => (await (await fetch(`${portal.url}/healthz`)).json()).payments;

async function countryId(portal: TestPortal, iso2: string): Promise<number> {
  return (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", iso2).executeTakeFirstOrThrow()).id;
}

/** A PayPal payment of the invoices as the API takes it (the JSON the page's script sends). */
async function payByPaypal(portal: TestPortal, c: Client, numbers: string[], key: string) {
  return c.request("/api/payoff/payment", {
    method: "POST",
    headers: { "content-type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify({
      paymentMethodId: PAYPAL,
      acceptedTermsAndConditions: true,
      additionalData: { payoffReceiptCodes: numbers },
      billingAddress: {
        address1: "1 Main St",
        city: "Durham",
        state: "NC",
        zip: "27701",
        country: { value: await countryId(portal, "US") },
      },
    }),
  });
}

describe("production without PAYMENTS_MODE and without provider credentials", () => {
  it("names no provider in test mode on /healthz", async () => {
    expect(await health(live)).toEqual({ mode: "live", testMode: [] });
  });

  it("offers neither card nor PayPal on the wizard's payment step; bank transfer remains; a card order is refused", async () => {
    const user = await createResearcher(live.ctx);
    const form = await createOrderFormFor(live.ctx, user, { services: ["standard-editing"], projectTitle: "Live mode" });
    const c = await live.signIn(user);
    const step = "/en/researcher/submit/payment-details";
    const html = await (await c.get(step)).text();
    expect(offered(html)).toEqual([BANK]);
    expect(html).not.toContain("pm-test-mode");
    const r = await c.post(step, { orderFormId: form.id, idempotencyKey: keyOf(html)!, paymentMethodId: String(CARD), acceptTerms: "on" });
    expect(r.status).toBe(400);
    expect(await live.ctx.db.selectFrom("orders").select("id").where("order_form_id", "=", form.id).execute()).toEqual([]);
  });

  it("offers no card or PayPal to pay an invoice, on the page or the API, and refuses a PayPal payment", async () => {
    const user = await createResearcher(live.ctx);
    const { invoice } = await createInvoice(live.ctx, user);
    const c = await live.signIn(user);
    const page = await c.get(`/en/researcher/invoices/pay/${invoice.number}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(offered(html)).not.toContain(CARD);
    expect(offered(html)).not.toContain(PAYPAL);
    const load = await (await c.get(`/api/payment/load?invoiceNumbers=${invoice.number}`)).json();
    const ids = load.methods.map((m: { id: number }) => m.id);
    expect(ids).not.toContain(CARD);
    expect(ids).not.toContain(PAYPAL);

    const r = await payByPaypal(live, c, [invoice.number], "k-live-paypal-1");
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: "payment-method-required" });
    expect(await live.ctx.db.selectFrom("payments").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    // The card fields' token (the sandbox's hosted fields) is not handed out either.
    expect((await c.get("/api/payment/braintree-client-token")).status).toBe(503);
  });
});

describe("PAYMENTS_MODE=sandbox", () => {
  it("names every provider in test mode on /healthz", async () => {
    expect(await health(sandbox)).toEqual({
      mode: "sandbox",
      testMode: ["card", "paypal", "alipay", "wechat", "unionpay", "allpago", "boleto"],
    });
  });

  it("lets only the signed-in payer approve a PayPal sandbox payment: a stranger, anonymous or staff gets 404", async () => {
    const owner = await createResearcher(sandbox.ctx);
    const { invoice } = await createInvoice(sandbox.ctx, owner);
    const c = await sandbox.signIn(owner);
    const r = await payByPaypal(sandbox, c, [invoice.number], "k-sandbox-paypal-1");
    expect(r.status).toBe(200);
    const { payment } = await r.json();
    expect(payment.status).toBe("pending");
    const approval = new URL(payment.redirectUrl);
    const page = `${approval.pathname}${approval.search}`;
    expect(approval.pathname).toBe(`/en/payment-sandbox/paypal/${payment.paymentId}`);

    const stranger = (await sandbox.researcher()).client;
    const anonymous = new Client(sandbox.url);
    for (const other of [stranger, anonymous]) {
      expect((await other.get(page)).status).toBe(404);
      expect((await other.post(page, { intent: "approve" })).status).toBe(404);
    }
    // Staff may look at it (no buttons) but not approve it.
    const staff = (await sandbox.staff()).client;
    const looked = await staff.get(page);
    expect(looked.status).toBe(200);
    expect(await looked.text()).not.toContain('value="approve"');
    expect((await staff.post(page, { intent: "approve" })).status).toBe(404);
    expect((await findPayment(sandbox.ctx, payment.paymentId))?.status).toBe("pending");

    // The owner, without JavaScript: the page, Approve, back to the portal, which captures.
    const own = await c.get(page);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('value="approve"');
    const approved = await c.post(page, { intent: "approve" });
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location")!, sandbox.url);
    expect(back.pathname).toBe(`/api/payment/return/paypal/${payment.paymentId}`);
    expect((await c.get(`${back.pathname}${back.search}`)).status).toBe(303);
    expect((await findPayment(sandbox.ctx, payment.paymentId))?.status).toBe("succeeded");
  });
});
