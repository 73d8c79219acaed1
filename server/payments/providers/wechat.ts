// WeChat Pay, API v3 (PAYMENTS.md "WeChat Pay"): a native payment answers a `code_url` shown as a QR code; after
// the payer pays, WeChat Pay posts a notification whose signature (SHA256withRSA over `timestamp\nnonce\nbody\n`,
// headers Wechatpay-Timestamp, -Nonce, -Signature, -Serial) is checked with the platform certificate, and whose
// `resource` is AES-256-GCM encrypted with the merchant's API v3 key. The answer is 204 with no body.
//
// The sandbox's code_url is the address of its own "scan with phone" page; paying there builds and signs the
// notification with the sandbox's platform key pair and API v3 key and delivers it to the same verifying code.
import { createHash, randomUUID, type KeyObject } from "node:crypto";
import { paths } from "#common/paths";
import { isSiteLang } from "#common/i18n";
import type { AppContext } from "../../context";
import type { ChargeRequest, ChargeResult, NotificationInput, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { aesGcmDecrypt, aesGcmEncrypt, rsaSign, rsaVerify, wechatMessage } from "./signatures";
import {
  compactUuid,
  digits,
  expandUuid,
  originOf,
  providerId,
  QR_VALID_MS,
  sandboxRsa,
  sandboxSecret,
  saveSession,
  sessionOf,
  type SandboxSession,
} from "./keys";
import type { WechatGateway } from "./wechat-live";

/** A notification older (or newer) than this is refused: a captured one cannot be replayed days later. */
export const WECHAT_CLOCK_SKEW_SECONDS = 300;

export interface WechatKeys {
  mchId: string;
  appId: string;
  apiV3Key: string;
  /** The platform certificate's serial and public key. */
  platformSerial: string;
  platformPublicKey: KeyObject | string;
}

export function sandboxWechatKeys(app: Pick<AppContext, "secrets">): WechatKeys {
  const pair = sandboxRsa("wechat");
  const der = pair.publicKey.export({ type: "spki", format: "der" });
  return {
    mchId: "1900000109",
    appId: "wxd678efh567hg6787",
    apiV3Key: sandboxSecret(app, "wechat-api-v3", 32),
    platformSerial: createHash("sha1").update(der).digest("hex").slice(0, 40).toUpperCase(),
    platformPublicKey: pair.publicKey,
  };
}

/** The sandbox's stand-in for WeChat Pay: the signed, encrypted notification of a paid (or closed) transaction. */
export function sandboxWechatNotification(
  app: Pick<AppContext, "secrets">,
  session: SandboxSession,
  tradeState: "SUCCESS" | "CLOSED" = "SUCCESS",
  at = new Date(),
): NotificationInput {
  const keys = sandboxWechatKeys(app);
  const transaction = {
    appid: keys.appId,
    mchid: keys.mchId,
    out_trade_no: session.paymentId,
    transaction_id: session.extra?.transactionId ?? `4200${digits(24)}`,
    trade_type: "NATIVE",
    trade_state: tradeState,
    trade_state_desc: tradeState === "SUCCESS" ? "支付成功" : "已关闭",
    bank_type: "OTHERS",
    success_time: at.toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    payer: { openid: `sandbox-${providerId(12)}` },
    amount: { total: session.amount, payer_total: session.amount, currency: session.currencyIso, payer_currency: session.currencyIso },
  };
  const nonce = providerId(12);
  const body = JSON.stringify({
    id: randomUUID(),
    create_time: transaction.success_time,
    resource_type: "encrypt-resource",
    event_type: tradeState === "SUCCESS" ? "TRANSACTION.SUCCESS" : "TRANSACTION.CLOSED",
    summary: tradeState === "SUCCESS" ? "支付成功" : "已关闭",
    resource: {
      original_type: "transaction",
      algorithm: "AEAD_AES_256_GCM",
      ciphertext: aesGcmEncrypt(keys.apiV3Key, nonce, "transaction", JSON.stringify(transaction)),
      associated_data: "transaction",
      nonce,
    },
  });
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const headerNonce = providerId(32);
  const headers = new Headers({
    "content-type": "application/json",
    "wechatpay-timestamp": timestamp,
    "wechatpay-nonce": headerNonce,
    "wechatpay-serial": keys.platformSerial,
    "wechatpay-signature": rsaSign(sandboxRsa("wechat").privateKey, wechatMessage(timestamp, headerNonce, body)),
  });
  return { headers, body, query: new URLSearchParams() };
}

interface Transaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; currency?: string };
}

export class WechatProvider implements PaymentProvider {
  readonly id = "wechat" as const;
  readonly sandbox: boolean;
  /** `gateway`: WeChat Pay itself (wechat-live.ts); without it the sandbox plays WeChat Pay. */
  constructor(
    private readonly app: Pick<AppContext, "cache">,
    private readonly keys: WechatKeys,
    private readonly gateway?: WechatGateway,
  ) {
    this.sandbox = !gateway;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (this.gateway) {
      const r = await this.gateway.post("/v3/pay/transactions/native", {
        appid: this.keys.appId,
        mchid: this.keys.mchId,
        description: request.description.slice(0, 127),
        out_trade_no: compactUuid(request.paymentId),
        notify_url: request.notifyUrl,
        amount: { total: request.amount, currency: request.currencyIso },
      });
      if (!r.ok) return { status: "failed", error: r.error, code: "wechat" };
      const codeUrl = typeof r.json.code_url === "string" ? r.json.code_url : "";
      if (!codeUrl) return { status: "failed", error: "no code_url", code: "wechat" };
      return {
        status: "pending",
        providerRef: request.paymentId,
        next: { kind: "qr", content: codeUrl, expiresAt: new Date(Date.now() + QR_VALID_MS).toISOString() },
        data: { tradeType: "NATIVE" },
      };
    }
    const lang = isSiteLang(request.lang) ? request.lang : "en";
    await saveSession(this.app, sessionOf("wechat", request, lang, request.paymentId, { transactionId: `4200${digits(24)}` }));
    const codeUrl = `${originOf(request.returnUrl)}${paths.paymentSandbox(lang, "wechat", request.paymentId)}`;
    return {
      status: "pending",
      providerRef: request.paymentId,
      next: { kind: "qr", content: codeUrl, expiresAt: new Date(Date.now() + QR_VALID_MS).toISOString() },
      data: { tradeType: "NATIVE" },
    };
  }

  async handleReturn(): Promise<ProviderEvent | null> {
    return null;
  }

  async verifyNotification(input: NotificationInput, now = Date.now()): Promise<ProviderEvent | null> {
    const h = (name: string) => input.headers.get(name) ?? "";
    const timestamp = h("wechatpay-timestamp");
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > WECHAT_CLOCK_SKEW_SECONDS) return null;
    if (h("wechatpay-serial").toUpperCase() !== this.keys.platformSerial.toUpperCase()) return null;
    if (!rsaVerify(this.keys.platformPublicKey, wechatMessage(timestamp, h("wechatpay-nonce"), input.body), h("wechatpay-signature")))
      return null;
    let resource: { ciphertext?: string; nonce?: string; associated_data?: string } | undefined;
    try {
      resource = (JSON.parse(input.body) as { resource?: typeof resource }).resource;
    } catch {
      return null;
    }
    if (!resource?.ciphertext || !resource.nonce) return null;
    const plain = aesGcmDecrypt(this.keys.apiV3Key, resource.nonce, resource.associated_data ?? "", resource.ciphertext);
    if (!plain) return null;
    let tx: Transaction;
    try {
      tx = JSON.parse(plain) as Transaction;
    } catch {
      return null;
    }
    if (
      tx.mchid !== this.keys.mchId ||
      !tx.out_trade_no ||
      !tx.transaction_id ||
      typeof tx.amount?.total !== "number" ||
      !tx.amount.currency
    )
      return null;
    const outcome =
      tx.trade_state === "SUCCESS"
        ? "succeeded"
        : tx.trade_state === "CLOSED" || tx.trade_state === "REVOKED"
          ? "cancelled"
          : tx.trade_state === "PAYERROR"
            ? "failed"
            : null;
    if (!outcome) return null;
    return {
      eventId: `${tx.transaction_id}:${outcome}`,
      reference: expandUuid(tx.out_trade_no),
      // Our providerRef for WeChat Pay is out_trade_no (native pay knows no transaction_id yet; refunds accept either).
      providerRef: expandUuid(tx.out_trade_no),
      outcome,
      amount: tx.amount.total,
      currencyIso: tx.amount.currency,
      data: { tradeState: tx.trade_state, transactionId: tx.transaction_id },
    };
  }

  notificationReply(accepted: boolean): Response {
    return accepted
      ? new Response(null, { status: 204 })
      : Response.json({ code: "FAIL", message: "signature verification failed" }, { status: 400 });
  }

  async refund(payment: { id: string; amount: number; currencyIso: string }, amount: number): Promise<RefundResult> {
    const refundRef = `${compactUuid(payment.id).slice(0, 16)}R${digits(8)}`;
    if (!this.gateway) return { ok: true, refundRef };
    const r = await this.gateway.post("/v3/refund/domestic/refunds", {
      out_trade_no: compactUuid(payment.id),
      out_refund_no: refundRef,
      amount: { refund: amount, total: payment.amount, currency: payment.currencyIso },
    });
    return r.ok ? { ok: true, refundRef } : { ok: false, error: r.error };
  }
}
