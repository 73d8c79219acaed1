// The providers' signature schemes (server/payments/providers/signatures.ts): what a sandbox signs verifies with
// the same code that verifies the real provider, and one changed byte (payload, signature or key) fails.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  alipaySignContent,
  braintreeSignature,
  rsaSign,
  rsaVerify,
  unionpaySignContent,
  verifyBraintreeSignature,
  wechatMessage,
} from "../../server/payments/providers/signatures";

const flip = (s: string, at: number) => s.slice(0, at) + String.fromCharCode(s.charCodeAt(at) ^ 1) + s.slice(at + 1);
const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
const other = generateKeyPairSync("rsa", { modulusLength: 2048 });

describe("Alipay RSA2", () => {
  const params = {
    app_id: "2021000000000000",
    out_trade_no: "4b5c2a6e-0000-4000-8000-000000000001",
    total_amount: "88.88",
    trade_status: "TRADE_SUCCESS",
    buyer_id: "",
    sign_type: "RSA2",
  };

  it("signs the sorted k=v& of every parameter but sign, sign_type and empty ones", () => {
    expect(alipaySignContent({ ...params, sign: "xyz" })).toBe(
      "app_id=2021000000000000&out_trade_no=4b5c2a6e-0000-4000-8000-000000000001&total_amount=88.88&trade_status=TRADE_SUCCESS",
    );
  });

  it("verifies with the public key; a changed parameter, signature byte or key fails", () => {
    const sign = rsaSign(pair.privateKey, alipaySignContent(params));
    expect(rsaVerify(pair.publicKey, alipaySignContent({ ...params, sign }), sign)).toBe(true);
    expect(rsaVerify(pair.publicKey, alipaySignContent({ ...params, total_amount: "88.89" }), sign)).toBe(false);
    expect(rsaVerify(pair.publicKey, alipaySignContent(params), flip(sign, 10))).toBe(false);
    expect(rsaVerify(other.publicKey, alipaySignContent(params), sign)).toBe(false);
    expect(rsaVerify(pair.publicKey, alipaySignContent(params), "not base64 at all")).toBe(false);
  });
});

describe("WeChat Pay API v3", () => {
  const body = '{"id":"EV-2018022511223320873","resource":{"ciphertext":"…"}}';

  it("signs `timestamp\\nnonce\\nbody\\n` SHA256withRSA; a changed byte of body, timestamp or signature fails", () => {
    const message = wechatMessage("1554208460", "593BEC0C930BF1AFEB40B4A08C8FB242", body);
    expect(message).toBe(`1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n${body}\n`);
    const signature = rsaSign(pair.privateKey, message);
    expect(rsaVerify(pair.publicKey, message, signature)).toBe(true);
    expect(rsaVerify(pair.publicKey, wechatMessage("1554208460", "593BEC0C930BF1AFEB40B4A08C8FB242", flip(body, 5)), signature)).toBe(
      false,
    );
    expect(rsaVerify(pair.publicKey, wechatMessage("1554208461", "593BEC0C930BF1AFEB40B4A08C8FB242", body), signature)).toBe(false);
    expect(rsaVerify(pair.publicKey, message, flip(signature, 3))).toBe(false);
  });

  it("decrypts AEAD_AES_256_GCM resources with the API v3 key; a changed byte, nonce, associated data or key fails", () => {
    const key = "0123456789abcdef0123456789abcdef";
    const plain = JSON.stringify({ out_trade_no: "x", amount: { total: 100, currency: "CNY" } });
    const ct = aesGcmEncrypt(key, "fdasflkja484", "transaction", plain);
    expect(aesGcmDecrypt(key, "fdasflkja484", "transaction", ct)).toBe(plain);
    const raw = Buffer.from(ct, "base64");
    raw[3] ^= 1;
    expect(aesGcmDecrypt(key, "fdasflkja484", "transaction", raw.toString("base64"))).toBeNull();
    expect(aesGcmDecrypt(key, "fdasflkja485", "transaction", ct)).toBeNull();
    expect(aesGcmDecrypt(key, "fdasflkja484", "certificate", ct)).toBeNull();
    expect(aesGcmDecrypt(flip(key, 0), "fdasflkja484", "transaction", ct)).toBeNull();
    expect(aesGcmDecrypt(key, "fdasflkja484", "transaction", "AAAA")).toBeNull();
  });
});

describe("Braintree webhooks", () => {
  it("signs publicKey|hex(HMAC-SHA1(SHA1(privateKey), payload)); a changed byte fails", () => {
    const payload = Buffer.from("<notification><kind>check</kind></notification>").toString("base64");
    const signature = braintreeSignature("pub_key", "priv_key", payload);
    // The known value from Braintree's SDK algorithm (sha1 of the private key as the HMAC key).
    expect(signature).toMatch(/^pub_key\|[0-9a-f]{40}$/);
    expect(verifyBraintreeSignature(signature, payload, "pub_key", "priv_key")).toBe(true);
    expect(verifyBraintreeSignature(`other|abc&${signature}`, payload, "pub_key", "priv_key")).toBe(true);
    expect(verifyBraintreeSignature(signature, flip(payload, 7), "pub_key", "priv_key")).toBe(false);
    expect(verifyBraintreeSignature(flip(signature, signature.length - 1), payload, "pub_key", "priv_key")).toBe(false);
    expect(verifyBraintreeSignature(signature, payload, "pub_key", "priv_kez")).toBe(false);
    expect(verifyBraintreeSignature(signature, payload, "pub_kez", "priv_key")).toBe(false);
  });
});

describe("UnionPay", () => {
  it("signs the hex SHA-256 of the sorted k=v& without signature; a changed parameter fails", () => {
    const params = { orderId: "abc123", txnAmt: "100", merId: "777290058110048", respCode: "00" };
    const content = unionpaySignContent({ ...params, signature: "ignored" });
    expect(content).toMatch(/^[0-9a-f]{64}$/);
    const signature = rsaSign(pair.privateKey, content);
    expect(rsaVerify(pair.publicKey, unionpaySignContent(params), signature)).toBe(true);
    expect(rsaVerify(pair.publicKey, unionpaySignContent({ ...params, txnAmt: "101" }), signature)).toBe(false);
  });
});
