// WeChat Pay API v3 client (server/payments/providers/wechat-live.ts) against a fake API: requests carry the
// merchant's signed Authorization header, answers are verified with the platform key; the adapter then shows
// WeChat Pay's own code_url, and reads a compact out_trade_no back as our payment id.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WechatGateway } from "../../server/payments/providers/wechat-live";
import { WechatProvider } from "../../server/payments/providers/wechat";
import { aesGcmEncrypt, rsaSign, rsaVerify, wechatMessage } from "../../server/payments/providers/signatures";
import { MemoryCache } from "../../server/cache";

const merchant = generateKeyPairSync("rsa", { modulusLength: 2048 });
const platform = generateKeyPairSync("rsa", { modulusLength: 2048 });
const API_V3_KEY = "0123456789abcdef0123456789abcdef";

function fakeWechat(forge = false) {
  const seen: { path: string; body: Record<string, unknown> }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const body = String(init.body);
    const auth = new Headers(init.headers).get("authorization") ?? "";
    const f = Object.fromEntries([...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const signed =
      auth.startsWith("WECHATPAY2-SHA256-RSA2048 ") &&
      rsaVerify(merchant.publicKey, `POST\n${url.pathname}\n${f.timestamp}\n${f.nonce_str}\n${body}\n`, f.signature);
    if (!signed) return new Response(JSON.stringify({ code: "SIGN_ERROR", message: "签名错误" }), { status: 401 });
    seen.push({ path: url.pathname, body: JSON.parse(body) });
    const answer = url.pathname.endsWith("/native")
      ? JSON.stringify({ code_url: "weixin://wxpay/bizpayurl?pr=p4lpSuKzz" })
      : JSON.stringify({ status: "PROCESSING" });
    const ts = String(Math.floor(Date.now() / 1000));
    const nonce = "n0nce";
    const sig = rsaSign(platform.privateKey, wechatMessage(ts, nonce, forge ? `${answer} ` : answer));
    return new Response(answer, {
      headers: { "wechatpay-timestamp": ts, "wechatpay-nonce": nonce, "wechatpay-signature": sig, "wechatpay-serial": "PLATFORM1" },
    });
  }) as typeof fetch;
  return { seen, fetchImpl };
}

const keys = {
  mchId: "1900000109",
  appId: "wxd678efh567hg6787",
  apiV3Key: API_V3_KEY,
  platformSerial: "PLATFORM1",
  platformPublicKey: platform.publicKey,
};
const gatewayOf = (fetchImpl: typeof fetch) =>
  new WechatGateway(
    {
      mchId: keys.mchId,
      serial: "MERCHANT1",
      privateKey: merchant.privateKey,
      platformSerial: "PLATFORM1",
      platformPublicKey: platform.publicKey,
    },
    "https://wechat.test",
    fetchImpl,
  );
const request = {
  paymentId: "4b5c2a6e-0000-4000-8000-000000000001",
  amount: 100,
  currencyIso: "CNY",
  numDecimals: 2,
  description: "Invoices INV1001",
  lang: "cn" as const,
  payer: { name: "李明", email: "li@example.com" },
  returnUrl: "https://portal.test/r",
  cancelUrl: "https://portal.test/c",
  notifyUrl: "https://portal.test/api/payment/notify/wechat",
};

describe("WeChat Pay API v3 client", () => {
  it("native pay with a signed request shows WeChat Pay's code_url; a notification names our payment", async () => {
    const api = fakeWechat();
    const provider = new WechatProvider({ cache: new MemoryCache() }, keys, gatewayOf(api.fetchImpl));
    expect(provider.sandbox).toBe(false);
    const r = await provider.charge(request);
    expect(r).toMatchObject({
      status: "pending",
      providerRef: request.paymentId,
      next: { kind: "qr", content: "weixin://wxpay/bizpayurl?pr=p4lpSuKzz" },
    });
    expect(api.seen[0]).toMatchObject({
      path: "/v3/pay/transactions/native",
      body: { mchid: keys.mchId, out_trade_no: "4b5c2a6e000040008000000000000001", amount: { total: 100, currency: "CNY" } },
    });

    const tx = {
      mchid: keys.mchId,
      out_trade_no: "4b5c2a6e000040008000000000000001",
      transaction_id: "4200001",
      trade_state: "SUCCESS",
      amount: { total: 100, currency: "CNY" },
    };
    const body = JSON.stringify({
      id: "EV-1",
      resource: {
        ciphertext: aesGcmEncrypt(API_V3_KEY, "abcdefabcdef", "transaction", JSON.stringify(tx)),
        nonce: "abcdefabcdef",
        associated_data: "transaction",
      },
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = new Headers({
      "wechatpay-timestamp": ts,
      "wechatpay-nonce": "x",
      "wechatpay-serial": "PLATFORM1",
      "wechatpay-signature": rsaSign(platform.privateKey, wechatMessage(ts, "x", body)),
    });
    expect(await provider.verifyNotification({ headers, body, query: new URLSearchParams() })).toMatchObject({
      reference: request.paymentId,
      providerRef: request.paymentId,
      amount: 100,
      outcome: "succeeded",
    });
    expect(await provider.refund({ id: request.paymentId, amount: 100, currencyIso: "CNY" }, 40)).toMatchObject({ ok: true });
    expect(api.seen[1]).toMatchObject({
      path: "/v3/refund/domestic/refunds",
      body: { amount: { refund: 40, total: 100, currency: "CNY" } },
    });
  });

  it("refuses an answer whose signature does not hold", async () => {
    const provider = new WechatProvider({ cache: new MemoryCache() }, keys, gatewayOf(fakeWechat(true).fetchImpl));
    expect(await provider.charge(request)).toMatchObject({ status: "failed", error: "answer signature does not hold" });
  });
});
