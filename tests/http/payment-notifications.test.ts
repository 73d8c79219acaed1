// Provider notifications and the pages around a waiting payment over HTTP (issue 12 §2, ADR 036): a verified
// Alipay or WeChat Pay notification settles its payment once; the same notification replayed changes nothing; a
// forged one (bad signature, another amount, another currency, an unknown reference) is refused and changes
// nothing. The sandbox's pages work without JavaScript: the pending page refreshes itself, the "phone" pays, the
// pending page then moves on to the landing. The status and the boleto's PDF are the owner's only.
import { randomUUID } from "node:crypto";
import { paymentSubmission } from "../helpers/payments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createInvoice, createResearcher } from "../helpers/factories";
import { systemScope } from "../../server/scope";
import { findPayment, payInvoices } from "../../server/payments";
import { loadSession, type SandboxSession } from "../../server/payments/providers/keys";
import { sandboxAlipayNotification } from "../../server/payments/providers/alipay";
import { sandboxWechatNotification } from "../../server/payments/providers/wechat";
import type { NotificationInput } from "../../server/payments/providers/types";
import { isValidBoletoLine } from "../../app/common/payments/boleto";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
}, 120_000);
afterAll(async () => portal?.stop());

const submission = paymentSubmission;

/** A researcher's unpaid invoice paid with a QR method on the China site: the pending payment and its sandbox session. */
async function pendingQrPayment(method: number, provider: "alipay" | "wechat") {
  const user = await createResearcher(portal.ctx);
  const { invoice } = await createInvoice(portal.ctx, user);
  const scope = systemScope(portal.ctx, { userId: user.id, lang: "cn", localization: "CN" });
  const r = await payInvoices(scope, [invoice.number], submission(method), randomUUID());
  if (!r.ok) throw new Error(`payInvoices: ${r.error} ${JSON.stringify(r.fieldErrors)}`);
  expect(r.value.status).toBe("pending");
  const paymentId = r.value.paymentId!;
  const session = (await loadSession(portal.ctx, provider, paymentId)) as SandboxSession;
  expect(session).toBeTruthy();
  return { user, invoice, paymentId, session };
}

/** A notification as the provider posts it: server to server, no Origin, no cookies. */
const notify = (provider: string, n: NotificationInput) =>
  fetch(`${portal.url}/api/payment/notify/${provider}`, { method: "POST", headers: n.headers, body: n.body });

async function state(paymentId: string, invoiceNumber: string) {
  const payment = await findPayment(portal.ctx, paymentId);
  const ledger = await portal.ctx.db.selectFrom("invoice_payments").select("id").where("invoice_number", "=", invoiceNumber).execute();
  const events = await portal.ctx.db
    .selectFrom("payment_events")
    .select("kind")
    .where("payment_id", "=", paymentId)
    .where("kind", "=", "notification")
    .execute();
  return { status: payment?.status, ledger: ledger.length, notifications: events.length };
}

describe("payment notifications", () => {
  it("Alipay: a forged notification is refused and changes nothing; a verified one settles once; its replay changes nothing", async () => {
    const { invoice, paymentId, session } = await pendingQrPayment(PAYMENT_METHOD.alipay, "alipay");
    const before = await state(paymentId, invoice.number);
    expect(before).toEqual({ status: "pending", ledger: 0, notifications: 0 });

    const genuine = sandboxAlipayNotification(session);
    // One changed byte of the signed body: the signature does not hold.
    const tampered = { ...genuine, body: genuine.body.replace(/total_amount=[^&]+/, "total_amount=0.01") };
    // Validly signed by the (sandbox) provider, but not about this payment: another amount, another currency, an unknown reference.
    const otherAmount = sandboxAlipayNotification({ ...session, amount: session.amount - 1 });
    const otherCurrency = sandboxAlipayNotification({ ...session, currencyIso: "EUR" });
    const unknown = sandboxAlipayNotification({ ...session, paymentId: randomUUID() });
    for (const forged of [tampered, otherAmount, otherCurrency, unknown]) {
      const res = await notify("alipay", forged);
      expect(res.status).toBe(400);
      expect(await res.text()).not.toBe("success");
    }
    expect(await state(paymentId, invoice.number)).toEqual(before);

    const first = await notify("alipay", genuine);
    expect([first.status, await first.text()]).toEqual([200, "success"]);
    expect(await state(paymentId, invoice.number)).toEqual({ status: "succeeded", ledger: 1, notifications: 1 });
    const paid = await portal.ctx.db
      .selectFrom("invoices")
      .select(["status", "balance"])
      .where("number", "=", invoice.number)
      .executeTakeFirstOrThrow();
    expect([paid.status, Number(paid.balance)]).toEqual(["paid", 0]);

    // Alipay retries until it reads `success`: the same notification again is answered `success` and changes nothing.
    const replay = await notify("alipay", genuine);
    expect([replay.status, await replay.text()]).toEqual([200, "success"]);
    expect(await state(paymentId, invoice.number)).toEqual({ status: "succeeded", ledger: 1, notifications: 1 });
  });

  it("WeChat Pay: a verified notification settles once (204); replayed or forged, nothing changes", async () => {
    const { invoice, paymentId, session } = await pendingQrPayment(PAYMENT_METHOD.wechat, "wechat");
    const genuine = sandboxWechatNotification(portal.ctx, session);
    const badSignature = new Headers(genuine.headers);
    badSignature.set(
      "wechatpay-signature",
      genuine.headers.get("wechatpay-signature")!.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    );
    for (const forged of [
      { ...genuine, headers: badSignature },
      sandboxWechatNotification(portal.ctx, { ...session, amount: session.amount + 1 }),
      sandboxWechatNotification(portal.ctx, { ...session, currencyIso: "JPY" }),
      sandboxWechatNotification(portal.ctx, { ...session, paymentId: randomUUID() }),
    ]) {
      expect((await notify("wechat", forged)).status).toBe(400);
    }
    expect(await state(paymentId, invoice.number)).toEqual({ status: "pending", ledger: 0, notifications: 0 });
    const first = await notify("wechat", genuine);
    expect([first.status, await first.text()]).toEqual([204, ""]);
    expect(await state(paymentId, invoice.number)).toEqual({ status: "succeeded", ledger: 1, notifications: 1 });
    expect((await notify("wechat", genuine)).status).toBe(204);
    expect(await state(paymentId, invoice.number)).toEqual({ status: "succeeded", ledger: 1, notifications: 1 });
  });

  it("an unknown provider is a 404; a notification needs no session and passes the cross-site check", async () => {
    const res = await fetch(`${portal.url}/api/payment/notify/bitcoin`, { method: "POST", body: "x=1" });
    expect(res.status).toBe(404);
    const empty = await fetch(`${portal.url}/api/payment/notify/alipay`, { method: "POST", body: "" });
    expect([empty.status, await empty.text()]).toEqual([400, "fail"]);
  });
});

describe("the pending page and the sandbox page, without JavaScript", () => {
  it("shows the QR code with a meta refresh; the sandbox phone pays; the page then moves on to the landing", async () => {
    const { user, invoice, paymentId } = await pendingQrPayment(PAYMENT_METHOD.alipay, "alipay");
    const owner = await portal.signIn(user);
    const pending = await owner.get(`/cn/researcher/payment/${paymentId}`);
    expect(pending.status).toBe(200);
    const html = await pending.text();
    expect(html).toMatch(/<meta http-equiv="refresh" content="3"/);
    expect(html).toContain('src="data:image/png;base64,');
    expect(html).toContain("测试模式");
    expect(html).toContain(`/cn/payment-sandbox/alipay/${paymentId}`);

    // Another researcher: 404 for the page, the status and the sandbox-independent data.
    const stranger = await portal.signIn(await createResearcher(portal.ctx));
    expect((await stranger.get(`/cn/researcher/payment/${paymentId}`)).status).toBe(404);
    expect((await stranger.get(`/api/payment/${paymentId}/status`)).status).toBe(404);
    const status = await owner.get(`/api/payment/${paymentId}/status`);
    expect(await status.json()).toMatchObject({ paymentId, status: "pending", sandbox: true });

    const phone = await owner.get(`/cn/payment-sandbox/alipay/${paymentId}`);
    expect(phone.status).toBe(200);
    expect(await state(paymentId, invoice.number)).toMatchObject({ status: "pending" });
    const paid = await owner.post(`/cn/payment-sandbox/alipay/${paymentId}`, { intent: "pay" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/cn/researcher/payment/${paymentId}`);
    expect(await state(paymentId, invoice.number)).toEqual({ status: "succeeded", ledger: 1, notifications: 1 });
    // Paying twice is not possible: the page says it is done.
    expect((await owner.post(`/cn/payment-sandbox/alipay/${paymentId}`, { intent: "pay" })).status).toBe(409);
    const after = await owner.get(`/cn/researcher/payment/${paymentId}`);
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/cn/researcher/invoices/unpaid/success");
  });

  it("PayPal: approve on the sandbox page, back through the return endpoint, captured", async () => {
    const user = await createResearcher(portal.ctx);
    const { invoice } = await createInvoice(portal.ctx, user);
    const scope = systemScope(portal.ctx, { userId: user.id, lang: "en", localization: "US" });
    const r = await payInvoices(scope, [invoice.number], submission(PAYMENT_METHOD.paypal), randomUUID());
    if (!r.ok) throw new Error(r.error);
    const approveUrl = new URL(r.value.redirectUrl!);
    const client = await portal.signIn(user);
    expect((await client.get(approveUrl.pathname + approveUrl.search)).status).toBe(200);
    const approved = await client.post(approveUrl.pathname + approveUrl.search, { intent: "approve" });
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location")!);
    expect(back.pathname).toBe(`/api/payment/return/paypal/${r.value.paymentId}`);
    expect(back.searchParams.get("PayerID")).toBeTruthy();
    const landed = await client.get(back.pathname + back.search);
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe("/en/researcher/invoices/unpaid/success");
    expect((await findPayment(portal.ctx, r.value.paymentId!))?.status).toBe("succeeded");
  });

  it("Boleto: the line on the pending page, the PDF for its owner only, the test bank's confirmation settles it", async () => {
    const user = await createResearcher(portal.ctx, { countryCode: "BR" });
    const { invoice } = await createInvoice(portal.ctx, user, { currencyIso: "BRL" });
    const scope = systemScope(portal.ctx, { userId: user.id, lang: "br", localization: "BR" });
    const address = {
      addressId: null,
      name: "Ana Souza",
      organization: null,
      address1: "Rua A, 1",
      address2: null,
      city: "São Paulo",
      state: "SP",
      zip: "01000-000",
      countryId: (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "BR").executeTakeFirstOrThrow()).id,
      phone: null,
      vat: null,
    };
    const r = await payInvoices(
      scope,
      [invoice.number],
      submission(PAYMENT_METHOD.boleto, { taxId: { type: "CPF", number: "52998224725" }, address, brazilChoice: "allpago" }),
      randomUUID(),
    );
    if (!r.ok) throw new Error(`${r.error} ${JSON.stringify(r.fieldErrors)}`);
    const paymentId = r.value.paymentId!;
    const payment = await findPayment(portal.ctx, paymentId);
    expect(payment?.nextAction?.kind).toBe("boleto");
    if (payment?.nextAction?.kind !== "boleto") return;
    expect(isValidBoletoLine(payment.nextAction.line)).toBe(true);
    const owner = await portal.signIn(user);
    const page = await (await owner.get(`/br/researcher/payment/${paymentId}`)).text();
    expect(page).toContain("Modo de teste");
    expect(page).toContain(`/api/payment/${paymentId}/boleto.pdf`);
    const pdf = await owner.get(`/api/payment/${paymentId}/boleto.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const stranger = await portal.signIn(await createResearcher(portal.ctx));
    expect((await stranger.get(`/api/payment/${paymentId}/boleto.pdf`)).status).toBe(404);
    const bank = await owner.post(`/br/payment-sandbox/boleto/${paymentId}`, { intent: "pay" });
    expect(bank.status).toBe(303);
    expect((await findPayment(portal.ctx, paymentId))?.status).toBe("succeeded");
  });
});

describe("the card fields' client token and the Allpago widget", () => {
  it("gives a signed-in user a client token naming our own hosted-fields page; a visitor gets 401", async () => {
    const client = await portal.signIn(await createResearcher(portal.ctx));
    const res = await client.get("/api/payment/braintree-client-token");
    expect(res.status).toBe(200);
    const { clientToken, sandbox } = (await res.json()) as { clientToken: string; sandbox: boolean };
    expect(sandbox).toBe(true);
    expect(JSON.parse(Buffer.from(clientToken, "base64").toString())).toMatchObject({ hostedFieldsUrl: "/sandbox/card-fields.html" });
    expect((await fetch(`${portal.url}/api/payment/braintree-client-token`)).status).toBe(401);
    const fields = await fetch(`${portal.url}/sandbox/card-fields.html`);
    expect(fields.status).toBe(200);
    expect(fields.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
  });

  it("creates a checkout and answers the widget page; its card post is the owner's; the charge reads the result by checkout id", async () => {
    const user = await createResearcher(portal.ctx);
    const client = await portal.signIn(user);
    const widget = await client.get("/api/payment/allpago-checkout?receiptCode=RS1&amount=500.00&numberOfInstallments=3");
    expect(widget.status).toBe(200);
    expect(widget.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await widget.text();
    expect(html).toContain('<script src="/sandbox/allpago-widget.js"></script>');
    expect(html).not.toMatch(/<script>|style="/);
    const checkoutId = /data-checkout-id="([^"]+)"/.exec(html)![1];
    expect((await client.get("/api/payment/allpago-checkout?amount=abc")).status).toBe(400);
    expect((await client.get("/api/payment/allpago-checkout?amount=10.00&numberOfInstallments=7")).status).toBe(400);

    const card = { number: "4000000000000002", holder: "Ana Souza", expiry: "12/30", cvv: "123" };
    const stranger = await portal.signIn(await createResearcher(portal.ctx));
    const json = { "content-type": "application/json" };
    expect(
      (
        await stranger.request(`/api/payment/allpago-checkout/${checkoutId}/pay`, {
          method: "POST",
          headers: json,
          body: JSON.stringify(card),
        })
      ).status,
    ).toBe(404);
    const declined = await client.request(`/api/payment/allpago-checkout/${checkoutId}/pay`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(card),
    });
    expect(await declined.json()).toMatchObject({ checkoutId, result: { code: "800.100.151" }, success: false });

    const other = /data-checkout-id="([^"]+)"/.exec(
      await (await client.get("/api/payment/allpago-checkout?receiptCode=RS1&amount=500.00")).text(),
    )![1];
    const paid = await client.request(`/api/payment/allpago-checkout/${other}/pay`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ ...card, number: "4200 0000 0000 0000" }),
    });
    expect(await paid.json()).toMatchObject({ result: { code: "000.100.110" }, success: true });
  });
});
