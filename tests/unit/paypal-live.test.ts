// PayPal's live client (server/payments/providers/paypal-live.ts) against a fake of PayPal's REST API: the calls
// it makes (token, create with our id as custom_id, capture with the mock-response header passing through,
// refund of the order's capture, webhook verification) and how it reads PayPal's answers.
import { describe, expect, it } from "vitest";
import { PaypalLiveProvider } from "../../server/payments/providers/paypal-live";

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** A fake PayPal: records each call and answers by path. */
function fakePaypal(captureAnswer: { status: number; body: unknown }) {
  const calls: Call[] = [];
  const fetchImpl = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    const text = typeof init.body === "string" ? init.body : "";
    calls.push({ method: init.method ?? "GET", path: url.pathname, headers, body: text.startsWith("{") ? JSON.parse(text) : text });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (url.pathname === "/v1/oauth2/token") return json(200, { access_token: "A21-token", expires_in: 32400 });
    if (url.pathname === "/v2/checkout/orders")
      return json(201, {
        id: "5O190127TN364715T",
        status: "PAYER_ACTION_REQUIRED",
        links: [{ rel: "payer-action", href: "https://www.paypal.com/checkoutnow?token=5O190127TN364715T" }],
      });
    if (url.pathname.endsWith("/capture")) return json(captureAnswer.status, captureAnswer.body);
    if (url.pathname === "/v2/checkout/orders/5O190127TN364715T")
      return json(200, {
        id: "5O190127TN364715T",
        status: "COMPLETED",
        purchase_units: [{ payments: { captures: [{ id: "3C679366HH908993F" }] } }],
      });
    if (url.pathname.endsWith("/refund")) return json(201, { id: "1JU08902781691411", status: "COMPLETED" });
    if (url.pathname === "/v1/notifications/verify-webhook-signature")
      return json(200, {
        verification_status: headers.get("authorization") && text.includes('"transmission_sig":"good"') ? "SUCCESS" : "FAILURE",
      });
    return json(404, { name: "RESOURCE_NOT_FOUND" });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const completed = {
  status: 201,
  body: {
    id: "5O190127TN364715T",
    status: "COMPLETED",
    purchase_units: [
      {
        payments: {
          captures: [
            {
              id: "3C679366HH908993F",
              status: "COMPLETED",
              custom_id: "4b5c2a6e-0000-4000-8000-000000000001",
              amount: { currency_code: "USD", value: "42.50" },
            },
          ],
        },
      },
    ],
  },
};
const credentials = { clientId: "client", clientSecret: "secret", apiUrl: "https://api.paypal.test", webhookId: "WH-1" };
const payment = { id: "4b5c2a6e-0000-4000-8000-000000000001", providerRef: "5O190127TN364715T", amount: 4250, currencyIso: "USD" };

describe("PayPal live client (Orders v2)", () => {
  it("creates an order with our payment id and answers its approval link; capture completes", async () => {
    const paypal = fakePaypal(completed);
    const provider = new PaypalLiveProvider(credentials, paypal.fetchImpl);
    const created = await provider.charge({
      paymentId: payment.id,
      amount: 4250,
      currencyIso: "USD",
      numDecimals: 2,
      description: "Invoices INV1001",
      lang: "en",
      payer: { name: "Ana", email: "ana@example.com" },
      returnUrl: "https://portal.test/api/payment/return/paypal/x",
      cancelUrl: "https://portal.test/api/payment/return/paypal/x?cancel=1",
      notifyUrl: "https://portal.test/api/payment/notify/paypal",
    });
    expect(created).toMatchObject({
      status: "pending",
      providerRef: "5O190127TN364715T",
      next: { kind: "redirect", url: expect.stringContaining("paypal.com") },
    });
    const create = paypal.calls.find((c) => c.path === "/v2/checkout/orders")!;
    expect(create.headers.get("authorization")).toBe("Bearer A21-token");
    expect(create.body).toMatchObject({
      intent: "CAPTURE",
      purchase_units: [{ custom_id: payment.id, amount: { currency_code: "USD", value: "42.50" } }],
    });
    expect(paypal.calls[0].headers.get("authorization")).toBe(`Basic ${Buffer.from("client:secret").toString("base64")}`);

    const event = await provider.handleReturn(payment, new URLSearchParams({ token: "5O190127TN364715T", PayerID: "QYR5Z8XDVJNXQ" }));
    expect(event).toMatchObject({
      outcome: "succeeded",
      reference: payment.id,
      amount: 4250,
      currencyIso: "USD",
      eventId: "capture:5O190127TN364715T",
    });
    // One token for all the calls.
    expect(paypal.calls.filter((c) => c.path === "/v1/oauth2/token")).toHaveLength(1);
    expect(await provider.handleReturn(payment, new URLSearchParams({ token: "OTHER", PayerID: "X" }))).toBeNull();
    expect(await provider.handleReturn(payment, new URLSearchParams({ token: "5O190127TN364715T" }))).toMatchObject({
      outcome: "cancelled",
    });
  });

  it("reads a declined capture (422 INSTRUMENT_DECLINED) as a failure", async () => {
    const paypal = fakePaypal({ status: 422, body: { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "INSTRUMENT_DECLINED" }] } });
    const provider = new PaypalLiveProvider(credentials, paypal.fetchImpl);
    const event = await provider.handleReturn(payment, new URLSearchParams({ token: "5O190127TN364715T", PayerID: "QYR5Z8XDVJNXQ" }));
    expect(event).toMatchObject({ outcome: "failed", error: "INSTRUMENT_DECLINED" });
  });

  it("refunds the order's capture; verifies webhooks through PayPal's endpoint", async () => {
    const paypal = fakePaypal(completed);
    const provider = new PaypalLiveProvider(credentials, paypal.fetchImpl);
    expect(await provider.refund(payment, 1000)).toEqual({ ok: true, refundRef: "1JU08902781691411" });
    expect(paypal.calls.find((c) => c.path.endsWith("/refund"))!.body).toEqual({ amount: { currency_code: "USD", value: "10.00" } });
    const body = JSON.stringify({
      id: "WH-EVT-1",
      event_type: "PAYMENT.CAPTURE.COMPLETED",
      resource: {
        id: "3C679366HH908993F",
        custom_id: payment.id,
        amount: { currency_code: "USD", value: "42.50" },
        supplementary_data: { related_ids: { order_id: "5O190127TN364715T" } },
      },
    });
    const headers = (sig: string) =>
      new Headers({
        "paypal-transmission-sig": sig,
        "paypal-transmission-id": "t",
        "paypal-transmission-time": "now",
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://api.paypal.com/cert",
      });
    expect(await provider.verifyNotification({ headers: headers("good"), body, query: new URLSearchParams() })).toMatchObject({
      eventId: "WH-EVT-1",
      reference: payment.id,
      providerRef: "5O190127TN364715T",
      outcome: "succeeded",
      amount: 4250,
    });
    expect(await provider.verifyNotification({ headers: headers("forged"), body, query: new URLSearchParams() })).toBeNull();
  });
});
