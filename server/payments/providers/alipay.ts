// Alipay (PAYMENTS.md "Alipay"): precreate answers a `qr_code` the pending page shows; the payer scans it and pays
// in the Alipay app; Alipay posts an asynchronous notification signed RSA2 (RSA-SHA256 over the sorted `k=v&…`
// of every parameter but sign and sign_type), which we verify with Alipay's public key and answer with the text
// `success` (otherwise Alipay retries about 8 times over about 25 hours).
//
// The sandbox's QR code is the address of its "scan with phone" page (paths.paymentSandbox(lang, "alipay", id)):
// paying there signs the notification Alipay would send, with the sandbox's own Alipay key pair, and delivers it
// to the same verifying code.
import { paths } from "#common/paths";
import { isSiteLang } from "#common/i18n";
import type { KeyObject } from "node:crypto";
import type { AppContext } from "../../context";
import type { AlipayGateway } from "./alipay-live";
import type { ChargeRequest, ChargeResult, NotificationInput, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { alipaySignContent, rsaSign, rsaVerify } from "./signatures";
import { currencyDigits, digits, originOf, providerId, sandboxRsa, saveSession, type SandboxSession, QR_VALID_MS, sessionOf } from "./keys";
import { majorText, parseMajor } from "#common/money";

export interface AlipayKeys {
  appId: string;
  /** Alipay's public key: the notifications' signatures are checked with it. */
  alipayPublicKey: KeyObject | string;
}

export const sandboxAlipayKeys = (): AlipayKeys => ({ appId: "2021000000000000", alipayPublicKey: sandboxRsa("alipay").publicKey });

/** The sandbox's stand-in for Alipay paying a trade: the notification exactly as Alipay would post it. */
export function sandboxAlipayNotification(
  session: SandboxSession,
  status: "TRADE_SUCCESS" | "TRADE_CLOSED" = "TRADE_SUCCESS",
): NotificationInput {
  const now = new Date().toISOString().replace("T", " ").slice(0, 19);
  const amount = majorText(session.amount, session.numDecimals);
  const params: Record<string, string> = {
    notify_time: now,
    notify_type: "trade_status_sync",
    notify_id: providerId(32, "abcdef0123456789"),
    app_id: sandboxAlipayKeys().appId,
    charset: "utf-8",
    version: "1.0",
    trade_no: session.extra?.tradeNo ?? `${now.slice(0, 10).replace(/-/g, "")}22001${digits(17)}`,
    out_trade_no: session.paymentId,
    trade_status: status,
    total_amount: amount,
    receipt_amount: amount,
    buyer_logon_id: "sandbox***@alipay.test",
    gmt_payment: now,
    subject: session.description,
  };
  if (session.currencyIso !== "CNY") params.trans_currency = session.currencyIso;
  params.sign_type = "RSA2";
  params.sign = rsaSign(sandboxRsa("alipay").privateKey, alipaySignContent(params));
  return {
    headers: new Headers({ "content-type": "application/x-www-form-urlencoded; charset=utf-8" }),
    body: new URLSearchParams(params).toString(),
    query: new URLSearchParams(),
  };
}

export class AlipayProvider implements PaymentProvider {
  readonly id = "alipay" as const;
  readonly sandbox: boolean;
  /** `gateway`: Alipay itself (alipay-live.ts); without it the sandbox plays Alipay. */
  constructor(
    private readonly app: Pick<AppContext, "cache">,
    private readonly keys: AlipayKeys,
    private readonly gateway?: AlipayGateway,
  ) {
    this.sandbox = !gateway;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (this.gateway) return this.precreate(this.gateway, request);
    const lang = isSiteLang(request.lang) ? request.lang : "en";
    const tradeNo = `${new Date().toISOString().slice(0, 10).replace(/-/g, "")}22001${digits(17)}`;
    await saveSession(this.app, sessionOf("alipay", request, lang, request.paymentId, { tradeNo }));
    const qr = `${originOf(request.returnUrl)}${paths.paymentSandbox(lang, "alipay", request.paymentId)}`;
    return {
      status: "pending",
      providerRef: request.paymentId,
      next: { kind: "qr", content: qr, expiresAt: new Date(Date.now() + QR_VALID_MS).toISOString() },
      data: { method: "alipay.trade.precreate" },
    };
  }

  async handleReturn(): Promise<ProviderEvent | null> {
    return null;
  }

  async verifyNotification(input: NotificationInput): Promise<ProviderEvent | null> {
    const params = Object.fromEntries(new URLSearchParams(input.body));
    if (!params.sign || params.sign_type !== "RSA2" || !rsaVerify(this.keys.alipayPublicKey, alipaySignContent(params), params.sign))
      return null;
    if (params.app_id !== this.keys.appId || !params.out_trade_no || !params.trade_no || !params.total_amount) return null;
    const outcome =
      params.trade_status === "TRADE_SUCCESS" || params.trade_status === "TRADE_FINISHED"
        ? "succeeded"
        : params.trade_status === "TRADE_CLOSED"
          ? "cancelled"
          : null;
    if (!outcome) return null;
    const currencyIso = params.trans_currency || "CNY";
    return {
      // Alipay repeats a notification until it reads `success`: one event per trade and status.
      eventId: `${params.trade_no}:${outcome}`,
      reference: params.out_trade_no,
      // Our providerRef for Alipay is out_trade_no (precreate knows no trade_no yet; refunds accept either).
      providerRef: params.out_trade_no,
      outcome,
      amount: parseMajor(params.total_amount, currencyDigits(currencyIso), { allowZero: true }) ?? Number.NaN,
      currencyIso,
      data: { tradeStatus: params.trade_status, tradeNo: params.trade_no, notifyId: params.notify_id },
    };
  }

  notificationReply(accepted: boolean): Response {
    return new Response(accepted ? "success" : "fail", {
      status: accepted ? 200 : 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }

  async refund(payment: { id: string; currencyIso: string }, amount: number): Promise<RefundResult> {
    const refundRef = `${payment.id.slice(0, 8)}-${providerId(8)}`;
    if (!this.gateway) return { ok: true, refundRef };
    const r = await this.gateway.call("alipay.trade.refund", {
      out_trade_no: payment.id,
      refund_amount: majorText(amount, currencyDigits(payment.currencyIso)),
      out_request_no: refundRef,
    });
    return r.ok ? { ok: true, refundRef } : { ok: false, error: r.error };
  }

  private async precreate(gateway: AlipayGateway, request: ChargeRequest): Promise<ChargeResult> {
    const r = await gateway.call(
      "alipay.trade.precreate",
      {
        out_trade_no: request.paymentId,
        total_amount: majorText(request.amount, request.numDecimals),
        subject: request.description.slice(0, 256),
        timeout_express: "2h",
        ...(request.currencyIso !== "CNY" ? { trans_currency: request.currencyIso } : {}),
      },
      { notify_url: request.notifyUrl },
    );
    if (!r.ok) return { status: "failed", error: r.error, code: "alipay" };
    const qr = r.response.qr_code;
    if (!qr) return { status: "failed", error: "no qr_code", code: "alipay" };
    return {
      status: "pending",
      providerRef: request.paymentId,
      next: { kind: "qr", content: qr, expiresAt: new Date(Date.now() + QR_VALID_MS).toISOString() },
      data: { method: "alipay.trade.precreate" },
    };
  }
}
