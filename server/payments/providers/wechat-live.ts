// WeChat Pay API v3 (native pay, refunds), used by the WeChat Pay adapter when its WECHATPAY_* variables are set
// (ADR 036). Each request carries `Authorization: WECHATPAY2-SHA256-RSA2048 …` signed with the merchant's private
// key over `METHOD\nPATH\ntimestamp\nnonce\nbody\n`; each answer is verified like a notification (platform key over
// `timestamp\nnonce\nbody\n`).
import { createPrivateKey, createPublicKey, randomBytes, X509Certificate, type KeyObject } from "node:crypto";
import { rsaSign, rsaVerify, wechatMessage } from "./signatures";

export const WECHATPAY_API = "https://api.mch.weixin.qq.com";

/** The platform certificate (or bare public key) as PEM. */
export const wechatPlatformKey = (pem: string): KeyObject =>
  pem.includes("BEGIN CERTIFICATE") ? new X509Certificate(pem).publicKey : createPublicKey(pem);

export interface WechatMerchant {
  mchId: string;
  /** The serial of the merchant's API certificate (the key that signs requests). */
  serial: string;
  privateKey: KeyObject;
  platformSerial: string;
  platformPublicKey: KeyObject;
}

export const wechatMerchantKey = (pem: string) => createPrivateKey(pem);

export class WechatGateway {
  constructor(
    private readonly merchant: WechatMerchant,
    private readonly base = WECHATPAY_API,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** POSTs `body` to `path`: the verified JSON answer, or an error text. */
  async post(path: string, body: unknown): Promise<{ ok: true; json: Record<string, unknown> } | { ok: false; error: string }> {
    const text = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString("hex");
    const signature = rsaSign(this.merchant.privateKey, `POST\n${path}\n${timestamp}\n${nonce}\n${text}\n`);
    const res = await this.fetchImpl(`${this.base}${path}`, {
      method: "POST",
      headers: {
        Authorization: `WECHATPAY2-SHA256-RSA2048 mchid="${this.merchant.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.merchant.serial}"`,
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: text,
    });
    const answer = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(answer || "{}");
    } catch {
      return { ok: false, error: `unreadable answer (HTTP ${res.status})` };
    }
    if (!res.ok) return { ok: false, error: String(json.message ?? json.code ?? `HTTP ${res.status}`) };
    const h = (n: string) => res.headers.get(n) ?? "";
    const signed =
      h("wechatpay-serial").toUpperCase() === this.merchant.platformSerial.toUpperCase() &&
      rsaVerify(
        this.merchant.platformPublicKey,
        wechatMessage(h("wechatpay-timestamp"), h("wechatpay-nonce"), answer),
        h("wechatpay-signature"),
      );
    return signed ? { ok: true, json } : { ok: false, error: "answer signature does not hold" };
  }
}
