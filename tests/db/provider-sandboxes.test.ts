// The built-in provider sandboxes (issue 12 §2, ADR 036) behave like the providers' test modes: Braintree's test
// nonces and amount rules with a nonce used once, PayPal's Orders v2 create → approve → capture (and a mocked
// INSTRUMENT_DECLINED), Allpago's result codes by checkout id, and the signed notifications of the QR and bank
// methods verified by the adapters themselves.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { getProvider, hasCredentials, ProviderUnavailable, sandboxNonceFor } from "../../server/payments/providers";
import type { ChargeRequest, ChargeResult } from "../../server/payments/providers/types";
import { approvePaypalOrder, cancelPaypalOrder } from "../../server/payments/providers/paypal";
import { PaypalLiveProvider } from "../../server/payments/providers/paypal-live";
import { createAllpagoCheckout, decideAllpagoPaypal, isAllpagoSuccess, payAllpagoCheckout } from "../../server/payments/providers/allpago";
import { loadSession } from "../../server/payments/providers/keys";
import { sandboxAlipayNotification } from "../../server/payments/providers/alipay";
import { sandboxWechatNotification, WechatProvider } from "../../server/payments/providers/wechat";
import { sandboxUnionpayNotification, sandboxUnionpayResult } from "../../server/payments/providers/unionpay";
import { sandboxBoletoNotification } from "../../server/payments/providers/boleto";
import { sandboxCardWebhook } from "../../server/payments/providers/card";
import { isValidBoletoLine } from "../../app/common/payments/boleto";
import { testEnv } from "../helpers/context";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const ORIGIN = "http://portal.test";

function request(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  const paymentId = overrides.paymentId ?? randomUUID();
  return {
    paymentId,
    amount: 1000,
    currencyIso: "USD",
    numDecimals: 2,
    description: "Order RS1001",
    lang: "en",
    payer: { name: "Ana Souza", email: "ana@example.com" },
    returnUrl: `${ORIGIN}/api/payment/return/x/${paymentId}`,
    cancelUrl: `${ORIGIN}/en/researcher/payment/${paymentId}?cancelled=1`,
    notifyUrl: `${ORIGIN}/api/payment/notify/x`,
    ...overrides,
  };
}

const failed = (r: ChargeResult) => {
  if (r.status !== "failed") throw new Error(`expected a refusal, got ${r.status}`);
  return r;
};

describe("card sandbox (Braintree test mode)", () => {
  const card = () => getProvider(t.ctx, "card");

  it("settles a valid nonce: submitted_for_settlement", async () => {
    const r = await card().charge(request({ nonce: sandboxNonceFor("4111 1111 1111 1111") }));
    expect(r.status).toBe("succeeded");
    expect(r).toMatchObject({ data: { status: "submitted_for_settlement" } });
  });

  it("turns each test card into its nonce and each nonce into Braintree's answer", async () => {
    expect(sandboxNonceFor("4000111111111115")).toMatch(/^fake-processor-declined-visa-nonce~/);
    expect(sandboxNonceFor("4111111111111112")).toMatch(/^fake-luhn-invalid-nonce~/);
    const declined = failed(await card().charge(request({ nonce: sandboxNonceFor("4000111111111115") })));
    expect(declined).toMatchObject({ code: "2000", error: "Do Not Honor", data: { status: "processor_declined" } });
    expect(declined.providerRef).toBeTruthy();
    expect(failed(await card().charge(request({ nonce: sandboxNonceFor("5105105105105100") })))).toMatchObject({ code: "2000" });
    expect(failed(await card().charge(request({ nonce: sandboxNonceFor("3566002020360505") })))).toMatchObject({
      code: "3000",
      data: { status: "failed" },
    });
    const fraud = failed(await card().charge(request({ nonce: sandboxNonceFor("4000111111111511") })));
    expect(fraud).toMatchObject({ code: "gateway_rejected", data: { gatewayRejectionReason: "fraud" } });
    expect(fraud.providerRef).toBeUndefined();
    const luhn = failed(await card().charge(request({ nonce: sandboxNonceFor("4111111111111112") })));
    expect(luhn).toMatchObject({ code: "81715", error: "Credit card number is invalid." });
    expect(failed(await card().charge(request({ nonce: "fake-consumed-nonce" })))).toMatchObject({ code: "93107" });
    expect(failed(await card().charge(request({ nonce: "tokencc_forged" })))).toMatchObject({ code: "91565" });
    expect(failed(await card().charge(request({ nonce: undefined })))).toMatchObject({ code: "91565" });
  });

  it("applies the amount rules: 2000–2999.99 declined with the amount's code, 3000.xx failed, 5001.00 rejected", async () => {
    const sale = (amount: number, numDecimals = 2) =>
      card().charge(request({ amount, numDecimals, nonce: sandboxNonceFor("4111111111111111") }));
    expect((await sale(1)).status).toBe("succeeded");
    expect((await sale(199999)).status).toBe("succeeded");
    expect(failed(await sale(200000))).toMatchObject({ code: "2000", error: "Do Not Honor" });
    expect(failed(await sale(200100))).toMatchObject({ code: "2001", error: "Insufficient Funds" });
    expect(failed(await sale(200250))).toMatchObject({ code: "2002", error: "Limit Exceeded" });
    expect(failed(await sale(200300))).toMatchObject({ code: "2003", error: "Cardholder's Activity Limit Exceeded" });
    expect(failed(await sale(299999))).toMatchObject({ code: "2999", error: "Processor Declined" });
    expect(failed(await sale(300000))).toMatchObject({ code: "3000", data: { status: "failed" } });
    expect(failed(await sale(300099))).toMatchObject({ code: "3000" });
    expect((await sale(300100)).status).toBe("succeeded");
    expect(failed(await sale(500100))).toMatchObject({
      code: "gateway_rejected",
      data: { gatewayRejectionReason: "application_incomplete" },
    });
    // A zero-decimal currency: 2001 yen is the amount 2001.00.
    expect(failed(await sale(2001, 0))).toMatchObject({ code: "2001" });
  });

  it("refuses a nonce used before, even when the first sale was declined", async () => {
    const nonce = sandboxNonceFor("4111111111111111");
    expect((await card().charge(request({ nonce }))).status).toBe("succeeded");
    expect(failed(await card().charge(request({ nonce })))).toMatchObject({
      code: "93107",
      error: "Cannot use a payment_method_nonce more than once.",
    });
    const declinedNonce = sandboxNonceFor("4111111111111111");
    expect((await card().charge(request({ nonce: declinedNonce, amount: 200000 }))).status).toBe("failed");
    expect(failed(await card().charge(request({ nonce: declinedNonce, amount: 1000 })))).toMatchObject({ code: "93107" });
    // Concurrent sales with one nonce: exactly one goes through.
    const shared = sandboxNonceFor("4111111111111111");
    const both = await Promise.all([card().charge(request({ nonce: shared })), card().charge(request({ nonce: shared }))]);
    expect(both.map((r) => r.status).sort()).toEqual(["failed", "succeeded"]);
  });

  it("verifies its signed webhooks; a changed payload is refused", async () => {
    const paymentId = randomUUID();
    const hook = sandboxCardWebhook(t.ctx, "transaction_settled", {
      id: "abc12345",
      orderId: paymentId,
      amount: "10.00",
      currencyIsoCode: "USD",
    });
    const input = (body: string) => ({ headers: new Headers(), body, query: new URLSearchParams() });
    const event = await card().verifyNotification(input(new URLSearchParams(hook).toString()));
    expect(event).toMatchObject({ reference: paymentId, providerRef: "abc12345", outcome: "succeeded", amount: 1000, currencyIso: "USD" });
    const other = sandboxCardWebhook(t.ctx, "transaction_settled", {
      id: "abc12345",
      orderId: paymentId,
      amount: "99.00",
      currencyIsoCode: "USD",
    });
    const forged = new URLSearchParams({ bt_signature: hook.bt_signature, bt_payload: other.bt_payload }).toString();
    expect(await card().verifyNotification(input(forged))).toBeNull();
  });
});

describe("PayPal sandbox (Orders v2)", () => {
  const paypal = () => getProvider(t.ctx, "paypal");
  const row = (req: ChargeRequest, providerRef: string) => ({
    id: req.paymentId,
    providerRef,
    amount: req.amount,
    currencyIso: req.currencyIso,
  });

  it("creates an order whose approve link is our sandbox page; approval returns with token and PayerID; capture completes", async () => {
    const req = request({ amount: 4250, currencyIso: "EUR" });
    const created = await paypal().charge(req);
    if (created.status !== "pending" || created.next.kind !== "redirect") throw new Error("expected a redirect");
    expect(created.providerRef).toMatch(/^[A-Z0-9]{17}$/);
    expect(created.next.url).toBe(`${ORIGIN}/en/payment-sandbox/paypal/${req.paymentId}?token=${created.providerRef}`);
    const session = await loadSession(t.ctx, "paypal", req.paymentId);
    expect(session).toMatchObject({ status: "CREATED", amount: 4250, currencyIso: "EUR" });

    // Coming back without approval is not a capture.
    expect(await paypal().handleReturn(row(req, created.providerRef), new URLSearchParams({ token: "OTHER" }))).toBeNull();

    const back = new URL(await approvePaypalOrder(t.ctx, session!));
    expect(back.origin + back.pathname).toBe(req.returnUrl);
    expect(back.searchParams.get("token")).toBe(created.providerRef);
    const forgedPayer = new URLSearchParams({ token: created.providerRef, PayerID: "SOMEONEELSE12" });
    expect(await paypal().handleReturn(row(req, created.providerRef), forgedPayer)).toBeNull();

    const captured = await paypal().handleReturn(row(req, created.providerRef), back.searchParams);
    expect(captured).toMatchObject({
      reference: req.paymentId,
      outcome: "succeeded",
      amount: 4250,
      currencyIso: "EUR",
      eventId: `capture:${created.providerRef}`,
    });
    // A reload of the return page: the same event, nothing new.
    expect(await paypal().handleReturn(row(req, created.providerRef), back.searchParams)).toEqual(captured);
  });

  it("declines on capture with PayPal-Mock-Response INSTRUMENT_DECLINED", async () => {
    const req = request({ mockResponse: '{"mock_application_codes":"INSTRUMENT_DECLINED"}' });
    const created = await paypal().charge(req);
    if (created.status !== "pending") throw new Error("expected pending");
    const back = new URL(await approvePaypalOrder(t.ctx, (await loadSession(t.ctx, "paypal", req.paymentId))!));
    const event = await paypal().handleReturn(row(req, created.providerRef), back.searchParams);
    expect(event).toMatchObject({ outcome: "failed", error: "INSTRUMENT_DECLINED" });
  });

  it("cancelling returns to the cancel URL and the return is a cancellation", async () => {
    const req = request();
    const created = await paypal().charge(req);
    if (created.status !== "pending") throw new Error("expected pending");
    const back = new URL(await cancelPaypalOrder(t.ctx, (await loadSession(t.ctx, "paypal", req.paymentId))!));
    expect(back.pathname).toBe(new URL(req.cancelUrl).pathname);
    const event = await paypal().handleReturn(row(req, created.providerRef), back.searchParams);
    expect(event).toMatchObject({ outcome: "cancelled" });
  });
});

describe("Allpago sandbox (OPPWA-style)", () => {
  const allpago = () => getProvider(t.ctx, "allpago");

  it("decides success by the result code", () => {
    for (const code of ["000.000.000", "000.100.110", "000.100.112", "000.300.000", "000.600.000"])
      expect(isAllpagoSuccess(code), code).toBe(true);
    for (const code of ["000.200.000", "000.400.000", "800.100.151", "100.396.101", "100.100.101"])
      expect(isAllpagoSuccess(code), code).toBe(false);
  });

  it("a test card succeeds (000.100.110), a decline card gives 800.100.151; results by checkout id after the charge", async () => {
    for (const [number, code, outcome] of [
      ["4200000000000000", "000.100.110", "succeeded"],
      ["4000000000000002", "800.100.151", "failed"],
      ["4200000000000001", "100.100.101", "failed"],
    ] as const) {
      const checkout = await createAllpagoCheckout(t.ctx, {
        userId: 1,
        receiptCode: "RS1",
        amount: 50000,
        currencyIso: "BRL",
        installments: 3,
      });
      const paid = await payAllpagoCheckout(t.ctx, checkout.id, { number, holder: "Ana Souza", expiry: "12/30", cvv: "123" });
      expect(paid?.code).toBe(code);
      const req = request({ amount: 50000, currencyIso: "BRL", checkoutId: checkout.id, installments: 3 });
      const r = await allpago().charge(req);
      if (r.status !== "pending" || r.next.kind !== "redirect") throw new Error("expected a redirect to the result");
      const back = new URL(r.next.url);
      expect(back.searchParams.get("id")).toBe(checkout.id);
      const event = await allpago().handleReturn(
        { id: req.paymentId, providerRef: r.providerRef, amount: 50000, currencyIso: "BRL" },
        back.searchParams,
      );
      expect(event).toMatchObject({ outcome, amount: 50000, currencyIso: "BRL", data: { resultCode: code, installments: 3 } });
    }
  });

  it("refuses a checkout of another amount, or one already paying another payment", async () => {
    const checkout = await createAllpagoCheckout(t.ctx, {
      userId: 1,
      receiptCode: "RS1",
      amount: 50000,
      currencyIso: "BRL",
      installments: 1,
    });
    expect((await allpago().charge(request({ amount: 40000, currencyIso: "BRL", checkoutId: checkout.id }))).status).toBe("failed");
    expect((await allpago().charge(request({ amount: 50000, currencyIso: "BRL", checkoutId: checkout.id }))).status).toBe("pending");
    expect((await allpago().charge(request({ amount: 50000, currencyIso: "BRL", checkoutId: checkout.id }))).status).toBe("failed");
    expect((await allpago().charge(request({ amount: 50000, currencyIso: "BRL", checkoutId: "NOPE" }))).status).toBe("failed");
  });

  it("Allpago PayPal: approval gives 000.100.110, cancelling 100.396.101", async () => {
    for (const approve of [true, false]) {
      const req = request({ amount: 12000, currencyIso: "BRL" });
      const r = await allpago().charge(req);
      if (r.status !== "pending" || r.next.kind !== "redirect") throw new Error("expected a redirect");
      expect(r.next.url).toContain(`/en/payment-sandbox/allpago/${req.paymentId}`);
      const back = new URL((await decideAllpagoPaypal(t.ctx, r.providerRef, approve, req.returnUrl))!);
      const event = await allpago().handleReturn(
        { id: req.paymentId, providerRef: r.providerRef, amount: 12000, currencyIso: "BRL" },
        back.searchParams,
      );
      expect(event?.outcome).toBe(approve ? "succeeded" : "cancelled");
    }
  });
});

describe("QR and bank sandboxes: signed notifications", () => {
  it("Alipay: precreate gives a QR of the sandbox page; its notification verifies; a changed amount does not", async () => {
    const alipay = getProvider(t.ctx, "alipay");
    const req = request({ amount: 8888, currencyIso: "CNY", lang: "cn" });
    const r = await alipay.charge(req);
    if (r.status !== "pending" || r.next.kind !== "qr") throw new Error("expected a QR code");
    expect(r.next.content).toBe(`${ORIGIN}/cn/payment-sandbox/alipay/${req.paymentId}`);
    const note = sandboxAlipayNotification((await loadSession(t.ctx, "alipay", req.paymentId))!);
    const event = await alipay.verifyNotification(note);
    expect(event).toMatchObject({ reference: req.paymentId, outcome: "succeeded", amount: 8888, currencyIso: "CNY" });
    const forged = { ...note, body: note.body.replace("total_amount=88.88", "total_amount=0.01") };
    expect(forged.body).not.toBe(note.body);
    expect(await alipay.verifyNotification(forged)).toBeNull();
    expect(await alipay.notificationReply(true).text()).toBe("success");
  });

  it("WeChat Pay: code_url, signed and encrypted notification, stale or forged refused, reply 204", async () => {
    const wechat = getProvider(t.ctx, "wechat") as WechatProvider;
    const req = request({ amount: 100, currencyIso: "CNY", lang: "cn" });
    const r = await wechat.charge(req);
    if (r.status !== "pending" || r.next.kind !== "qr") throw new Error("expected a QR code");
    const session = (await loadSession(t.ctx, "wechat", req.paymentId))!;
    const note = sandboxWechatNotification(t.ctx, session);
    expect(await wechat.verifyNotification(note)).toMatchObject({
      reference: req.paymentId,
      amount: 100,
      currencyIso: "CNY",
      outcome: "succeeded",
    });
    const stale = sandboxWechatNotification(t.ctx, session, "SUCCESS", new Date(Date.now() - 3600_000));
    expect(await wechat.verifyNotification(stale)).toBeNull();
    expect(await wechat.verifyNotification({ ...note, body: note.body.replace('"ciphertext":"', '"ciphertext":"A') })).toBeNull();
    const headers = new Headers(note.headers);
    headers.set("wechatpay-serial", "0000");
    expect(await wechat.verifyNotification({ ...note, headers })).toBeNull();
    expect(wechat.notificationReply(true).status).toBe(204);
  });

  it("UnionPay: the front return and the background notification carry the same signed event", async () => {
    const unionpay = getProvider(t.ctx, "unionpay");
    const req = request({ amount: 2500, currencyIso: "CNY" });
    const r = await unionpay.charge(req);
    // The front transaction is a form for the payer's browser to submit to the gateway (the sandbox's page).
    if (r.status !== "pending" || r.next.kind !== "form") throw new Error("expected a front form");
    expect(r.next.action).toMatch(new RegExp(`/en/payment-sandbox/unionpay/${req.paymentId}$`));
    expect(r.next.fields).toMatchObject({ orderId: r.providerRef, txnAmt: "2500", currencyCode: "156" });
    const session = (await loadSession(t.ctx, "unionpay", req.paymentId))!;
    const fromNotify = await unionpay.verifyNotification(sandboxUnionpayNotification(session));
    const fromReturn = await unionpay.handleReturn(
      { id: req.paymentId, providerRef: r.providerRef, amount: 2500, currencyIso: "CNY" },
      new URLSearchParams(sandboxUnionpayResult(session)),
    );
    expect(fromNotify).toMatchObject({ reference: req.paymentId, amount: 2500, currencyIso: "CNY", outcome: "succeeded" });
    expect(fromReturn?.eventId).toBe(fromNotify?.eventId);
    const forged = sandboxUnionpayResult(session);
    forged.txnAmt = "1";
    expect(
      await unionpay.verifyNotification({
        headers: new Headers(),
        body: new URLSearchParams(forged).toString(),
        query: new URLSearchParams(),
      }),
    ).toBeNull();
  });

  it("Boleto: a valid line 3 days ahead in BRL; the bank's signed confirmation verifies, a forged one does not", async () => {
    const boleto = getProvider(t.ctx, "boleto");
    const payer = { name: "Ana Souza", email: "ana@example.com", taxId: { type: "CPF" as const, number: "52998224725" } };
    expect((await boleto.charge(request({ currencyIso: "USD", payer }))).status).toBe("failed");
    const req = request({ amount: 15990, currencyIso: "BRL", lang: "br", payer });
    const r = await boleto.charge(req);
    if (r.status !== "pending" || r.next.kind !== "boleto") throw new Error("expected a boleto");
    expect(isValidBoletoLine(r.next.line)).toBe(true);
    expect(r.next.barcode.slice(9, 19)).toBe("0000015990");
    const due =
      Date.parse(`${r.next.dueOn}T00:00:00Z`) - Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    expect(due / 86_400_000).toBe(3);
    const note = sandboxBoletoNotification(t.ctx, (await loadSession(t.ctx, "boleto", req.paymentId))!);
    expect(await boleto.verifyNotification(note)).toMatchObject({
      reference: req.paymentId,
      amount: 15990,
      currencyIso: "BRL",
      outcome: "succeeded",
    });
    expect(await boleto.verifyNotification({ ...note, body: note.body.replace('"amount":15990', '"amount":1') })).toBeNull();
  });
});

describe("getProvider", () => {
  it("serves the sandbox without credentials; with credentials it has no live client for, the provider is unavailable", async () => {
    expect(getProvider(t.ctx, "card").sandbox).toBe(true);
    expect(getProvider(t.ctx, "card")).toBe(getProvider(t.ctx, "card"));
    const env = testEnv({
      PAYPAL_CLIENT_ID: "id",
      PAYPAL_CLIENT_SECRET: "secret",
      BRAINTREE_MERCHANT_ID: "m",
      BRAINTREE_PUBLIC_KEY: "p",
      BRAINTREE_PRIVATE_KEY: "k",
    });
    expect(hasCredentials(env, "paypal")).toBe(true);
    expect(hasCredentials(env, "alipay")).toBe(false);
    const live = { ...t.ctx, env };
    // PayPal has its live client; the card's credentials without one make the provider unavailable.
    expect(getProvider(live, "paypal")).toBeInstanceOf(PaypalLiveProvider);
    expect(getProvider(live, "paypal").sandbox).toBe(false);
    const card = getProvider(live, "card");
    expect(card.sandbox).toBe(false);
    await expect(card.charge(request())).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it("without PAYMENTS_MODE=sandbox and without credentials no sandbox runs: every provider refuses (issue 21 §3)", async () => {
    const live = { ...t.ctx, env: testEnv({ PAYMENTS_MODE: undefined }) };
    expect(live.env.PAYMENTS_MODE).toBe("live");
    for (const id of ["card", "paypal", "alipay", "wechat", "unionpay", "allpago", "boleto"] as const) {
      const provider = getProvider(live, id);
      expect(provider.sandbox).toBe(false);
      await expect(provider.charge(request())).rejects.toBeInstanceOf(ProviderUnavailable);
    }
  });
});
