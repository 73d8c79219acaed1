// Alipay's open API (alipay.trade.precreate, alipay.trade.refund), used by the Alipay adapter when ALIPAY_APP_ID,
// ALIPAY_PRIVATE_KEY and ALIPAY_PUBLIC_KEY are set (ADR 036). Requests are form posts to the gateway signed RSA2
// with the app's private key over the sorted `k=v&…`; answers are verified with Alipay's public key over the raw
// JSON of the `…_response` member, exactly as Alipay's SDKs do. Cross-border currencies (trans_currency) are not
// verified against Alipay.
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { alipaySignContent, rsaSign, rsaVerify } from "./signatures";

export const ALIPAY_GATEWAY = "https://openapi.alipay.com/gateway.do";

/** A key as Alipay's console shows it (bare base64 DER) or as PEM. */
export function alipayKey(text: string, kind: "private" | "public"): KeyObject {
  const pem = text.includes("-----BEGIN");
  if (kind === "public")
    return pem ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text, "base64"), format: "der", type: "spki" });
  if (pem) return createPrivateKey(text);
  const der = Buffer.from(text, "base64");
  try {
    return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  } catch {
    return createPrivateKey({ key: der, format: "der", type: "pkcs1" });
  }
}

/** Beijing time as Alipay's `timestamp` wants it: `yyyy-MM-dd HH:mm:ss`. */
const beijingTime = (d = new Date()) => new Date(d.getTime() + 8 * 3600_000).toISOString().replace("T", " ").slice(0, 19);

export class AlipayGateway {
  constructor(
    private readonly appId: string,
    private readonly privateKey: KeyObject,
    private readonly alipayPublicKey: KeyObject,
    private readonly url = ALIPAY_GATEWAY,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Calls `method`; the verified `…_response` object, or an error text. */
  async call(
    method: string,
    bizContent: Record<string, unknown>,
    extra: Record<string, string> = {},
  ): Promise<{ ok: true; response: Record<string, string> } | { ok: false; error: string }> {
    const params: Record<string, string> = {
      app_id: this.appId,
      method,
      format: "JSON",
      charset: "utf-8",
      sign_type: "RSA2",
      timestamp: beijingTime(),
      version: "1.0",
      biz_content: JSON.stringify(bizContent),
      ...extra,
    };
    params.sign = rsaSign(this.privateKey, alipaySignContent(params));
    const res = await this.fetchImpl(this.url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=utf-8" },
      body: new URLSearchParams(params).toString(),
    });
    const text = await res.text();
    const member = `${method.replace(/\./g, "_")}_response`;
    // The signature covers the member's JSON exactly as sent: take it from the raw text, not re-serialised.
    const m = new RegExp(`"${member}"\\s*:\\s*(\\{.*?\\})\\s*,\\s*"sign"\\s*:\\s*"([^"]+)"`, "s").exec(text);
    if (!m) return { ok: false, error: `unreadable answer (HTTP ${res.status})` };
    const response = JSON.parse(m[1]) as Record<string, string>;
    if (response.code !== "10000") return { ok: false, error: response.sub_msg || response.msg || response.code };
    if (!rsaVerify(this.alipayPublicKey, m[1], m[2])) return { ok: false, error: "answer signature does not hold" };
    return { ok: true, response };
  }
}
