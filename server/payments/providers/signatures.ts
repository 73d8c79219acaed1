// The signature schemes of the providers' notifications (PAYMENTS.md), with node:crypto only. The sandboxes sign
// with these functions and the adapters verify with them, so the verify side is exactly what runs against the
// real provider: only the keys differ (server/payments/providers/keys.ts).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSign,
  createVerify,
  timingSafeEqual,
  type KeyObject,
} from "node:crypto";

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

// --- Braintree webhooks: `publicKey|hex(HMAC-SHA1(key = SHA1(privateKey), payload))` ---------------------------

export function braintreeSignature(publicKey: string, privateKey: string, payload: string): string {
  const key = createHash("sha1").update(privateKey).digest();
  return `${publicKey}|${createHmac("sha1", key).update(payload).digest("hex")}`;
}

/** bt_signature may list several `publicKey|hex` pairs joined by `&` (key rotation): one of ours must match. */
export function verifyBraintreeSignature(signature: string, payload: string, publicKey: string, privateKey: string): boolean {
  const expected = braintreeSignature(publicKey, privateKey, payload);
  return signature.split("&").some((pair) => sameText(pair, expected));
}

// --- RSA-SHA256 (Alipay RSA2, WeChat Pay SHA256withRSA), base64 signatures -------------------------------------

export function rsaSign(privateKey: KeyObject | string, content: string): string {
  return createSign("RSA-SHA256").update(content, "utf8").sign(privateKey, "base64");
}

export function rsaVerify(publicKey: KeyObject | string, content: string, signature: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(content, "utf8").verify(publicKey, signature, "base64");
  } catch {
    return false;
  }
}

// --- Alipay: sorted `k=v&…` without sign and sign_type (and without empty values) -------------------------------

export function alipaySignContent(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

// --- WeChat Pay API v3 -----------------------------------------------------------------------------------------

/** What a WeChat Pay notification's signature covers: `timestamp\nnonce\nbody\n`. */
export const wechatMessage = (timestamp: string, nonce: string, body: string) => `${timestamp}\n${nonce}\n${body}\n`;

/** AEAD_AES_256_GCM as WeChat Pay uses it: base64(ciphertext ‖ 16-byte tag), a 12-character nonce, associated data. */
export function aesGcmEncrypt(apiV3Key: string, nonce: string, associatedData: string, plaintext: string): string {
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([body, cipher.getAuthTag()]).toString("base64");
}

/** The plaintext, or null when the tag does not hold (a changed byte, another key). */
export function aesGcmDecrypt(apiV3Key: string, nonce: string, associatedData: string, ciphertext: string): string | null {
  try {
    const raw = Buffer.from(ciphertext, "base64");
    if (raw.length < 17) return null;
    const decipher = createDecipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

// --- UnionPay (5.1, signMethod 01): RSA-SHA256 over the hex SHA-256 of sorted `k=v&…` without `signature` ------

export function unionpaySignContent(params: Record<string, string>): string {
  const sorted = Object.keys(params)
    .filter((k) => k !== "signature")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createHash("sha256").update(sorted, "utf8").digest("hex");
}

// --- The boleto bank's confirmation: hex HMAC-SHA256 of the body ----------------------------------------------

export const hmacSha256Hex = (secret: string, body: string) => createHmac("sha256", secret).update(body, "utf8").digest("hex");

export const verifyHmacSha256Hex = (secret: string, body: string, signature: string) => sameText(hmacSha256Hex(secret, body), signature);
