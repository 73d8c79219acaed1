// Alipay's open API client (server/payments/providers/alipay-live.ts) against a fake gateway: requests signed RSA2
// with the app's key, answers verified with Alipay's key over the raw `…_response` JSON; the adapter then shows
// Alipay's own qr_code and verifies notifications with the configured public key.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AlipayGateway, alipayKey } from "../../server/payments/providers/alipay-live";
import { AlipayProvider } from "../../server/payments/providers/alipay";
import { alipaySignContent, rsaSign, rsaVerify } from "../../server/payments/providers/signatures";
import { MemoryCache } from "../../server/cache";

const app = generateKeyPairSync("rsa", { modulusLength: 2048 });
const alipay = generateKeyPairSync("rsa", { modulusLength: 2048 });
const bare = (k: typeof app.publicKey, type: "spki" | "pkcs8") => (k.export({ format: "der", type } as never) as Buffer).toString("base64");

function fakeGateway(answer: (params: Record<string, string>) => Record<string, string>, forge = false) {
  const seen: Record<string, string>[] = [];
  const fetchImpl = (async (_url: string | URL | Request, init: RequestInit = {}) => {
    const params = Object.fromEntries(new URLSearchParams(String(init.body)));
    seen.push(params);
    const signedByApp = rsaVerify(app.publicKey, alipaySignContent(params), params.sign);
    const member = `${params.method.replace(/\./g, "_")}_response`;
    const body = JSON.stringify(signedByApp ? answer(params) : { code: "40002", msg: "Invalid Arguments", sub_msg: "invalid signature" });
    const sign = rsaSign(alipay.privateKey, forge ? body.replace("10000", "10001") : body);
    return new Response(`{"${member}":${body},"sign":"${sign}"}`, { headers: { "content-type": "text/html;charset=utf-8" } });
  }) as typeof fetch;
  return { seen, fetchImpl };
}

const request = {
  paymentId: "4b5c2a6e-0000-4000-8000-000000000001",
  amount: 8888,
  currencyIso: "CNY",
  numDecimals: 2,
  description: "Invoices INV1001",
  lang: "cn" as const,
  payer: { name: "李明", email: "li@example.com" },
  returnUrl: "https://portal.test/api/payment/return/alipay/x",
  cancelUrl: "https://portal.test/api/payment/return/alipay/x?cancel=1",
  notifyUrl: "https://portal.test/api/payment/notify/alipay",
};

describe("Alipay open API client", () => {
  it("reads keys as the console shows them (bare base64) or PEM", () => {
    expect(alipayKey(bare(app.publicKey, "spki"), "public").asymmetricKeyType).toBe("rsa");
    expect(alipayKey(bare(app.privateKey, "pkcs8"), "private").asymmetricKeyType).toBe("rsa");
    expect(alipayKey(app.privateKey.export({ format: "pem", type: "pkcs1" }) as string, "private").asymmetricKeyType).toBe("rsa");
  });

  it("precreates with a signed request and shows Alipay's qr_code; notifications verify with Alipay's key", async () => {
    const gateway = fakeGateway((p) => ({
      code: "10000",
      msg: "Success",
      out_trade_no: JSON.parse(p.biz_content).out_trade_no,
      qr_code: "https://qr.alipay.com/bax03431ljhokirwl38f00a7",
    }));
    const keys = { appId: "2021000000000001", alipayPublicKey: alipay.publicKey };
    const provider = new AlipayProvider(
      { cache: new MemoryCache() },
      keys,
      new AlipayGateway(keys.appId, app.privateKey, alipay.publicKey, "https://alipay.test/gateway.do", gateway.fetchImpl),
    );
    expect(provider.sandbox).toBe(false);
    const r = await provider.charge(request);
    expect(r).toMatchObject({
      status: "pending",
      providerRef: request.paymentId,
      next: { kind: "qr", content: "https://qr.alipay.com/bax03431ljhokirwl38f00a7" },
    });
    expect(gateway.seen[0]).toMatchObject({
      app_id: keys.appId,
      method: "alipay.trade.precreate",
      sign_type: "RSA2",
      notify_url: request.notifyUrl,
    });
    expect(JSON.parse(gateway.seen[0].biz_content)).toMatchObject({ out_trade_no: request.paymentId, total_amount: "88.88" });

    const params: Record<string, string> = {
      app_id: keys.appId,
      out_trade_no: request.paymentId,
      trade_no: "2026112422001400000000000001",
      trade_status: "TRADE_SUCCESS",
      total_amount: "88.88",
      notify_id: "n1",
      sign_type: "RSA2",
    };
    params.sign = rsaSign(alipay.privateKey, alipaySignContent(params));
    const note = { headers: new Headers(), body: new URLSearchParams(params).toString(), query: new URLSearchParams() };
    expect(await provider.verifyNotification(note)).toMatchObject({ reference: request.paymentId, amount: 8888, currencyIso: "CNY" });
    params.sign = rsaSign(app.privateKey, alipaySignContent(params));
    expect(await provider.verifyNotification({ ...note, body: new URLSearchParams(params).toString() })).toBeNull();

    expect(await provider.refund({ id: request.paymentId, currencyIso: "CNY" }, 1000)).toMatchObject({ ok: true });
    expect(JSON.parse(gateway.seen[1].biz_content)).toMatchObject({ out_trade_no: request.paymentId, refund_amount: "10.00" });
  });

  it("refuses an answer whose signature does not hold, and reports Alipay's error", async () => {
    const forged = fakeGateway(() => ({ code: "10000", msg: "Success", qr_code: "https://qr.alipay.com/x" }), true);
    const gw = new AlipayGateway("2021000000000001", app.privateKey, alipay.publicKey, "https://alipay.test/gateway.do", forged.fetchImpl);
    expect(await gw.call("alipay.trade.precreate", {})).toEqual({ ok: false, error: "answer signature does not hold" });
    const refusing = fakeGateway(() => ({ code: "40004", msg: "Business Failed", sub_msg: "交易已被支付" }));
    const gw2 = new AlipayGateway(
      "2021000000000001",
      app.privateKey,
      alipay.publicKey,
      "https://alipay.test/gateway.do",
      refusing.fetchImpl,
    );
    expect(await gw2.call("alipay.trade.precreate", {})).toEqual({ ok: false, error: "交易已被支付" });
  });
});
