// UnionPay online payments (PAYMENTS.md "UnionPay"; the layout follows UnionPay's gateway 5.1, not verified in
// full): the payer's browser is sent to UnionPay's front page; after paying, UnionPay posts a background
// notification and sends the browser back to our front URL, both carrying the same parameters signed with RSA
// (signMethod 01: RSA-SHA256 over the hex SHA-256 of the sorted `k=v&…` without `signature`). Amounts are fen
// (minor units), currencies ISO numeric codes. Our reply to a notification is the text `ok`.
//
// The sandbox's front page is our own (paths.paymentSandbox(lang, "unionpay", id)).
import type { KeyObject } from "node:crypto";
import { paths } from "#common/paths";
import { isSiteLang } from "#common/i18n";
import type { AppContext } from "../../context";
import type { ChargeRequest, ChargeResult, NotificationInput, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { rsaSign, rsaVerify, unionpaySignContent } from "./signatures";
import { compactUuid, digits, expandUuid, originOf, sandboxRsa, saveSession, sessionOf, type SandboxSession } from "./keys";

/** ISO 4217 numeric codes of the currencies the portal charges in. */
const NUMERIC: Record<string, string> = {
  CNY: "156",
  USD: "840",
  EUR: "978",
  GBP: "826",
  JPY: "392",
  BRL: "986",
  HKD: "344",
  KRW: "410",
  TWD: "901",
  AUD: "036",
  CAD: "124",
};
const ALPHA = Object.fromEntries(Object.entries(NUMERIC).map(([a, n]) => [n, a]));

export interface UnionpayKeys {
  merId: string;
  /** UnionPay's signing public key. */
  unionpayPublicKey: KeyObject | string;
}

export const sandboxUnionpayKeys = (): UnionpayKeys => ({ merId: "777290058110048", unionpayPublicKey: sandboxRsa("unionpay").publicKey });

const txnTime = (d = new Date()) => d.toISOString().replace(/\D/g, "").slice(0, 14);

/** The parameters UnionPay signs for a paid (respCode 00) or failed order; the same for the notification and the front return. */
export function sandboxUnionpayResult(session: SandboxSession, respCode = "00"): Record<string, string> {
  const params: Record<string, string> = {
    version: "5.1.0",
    encoding: "UTF-8",
    signMethod: "01",
    txnType: "01",
    txnSubType: "01",
    bizType: "000201",
    accessType: "0",
    merId: sandboxUnionpayKeys().merId,
    orderId: session.providerRef,
    txnTime: session.extra?.txnTime ?? txnTime(),
    txnAmt: String(session.amount),
    currencyCode: NUMERIC[session.currencyIso] ?? "156",
    queryId: session.extra?.queryId ?? digits(21),
    traceNo: digits(6),
    traceTime: txnTime().slice(4),
    respCode,
    respMsg: respCode === "00" ? "成功[0000000]" : "交易失败",
  };
  params.signature = rsaSign(sandboxRsa("unionpay").privateKey, unionpaySignContent(params));
  return params;
}

export const sandboxUnionpayNotification = (session: SandboxSession, respCode = "00"): NotificationInput => ({
  headers: new Headers({ "content-type": "application/x-www-form-urlencoded" }),
  body: new URLSearchParams(sandboxUnionpayResult(session, respCode)).toString(),
  query: new URLSearchParams(),
});

export class UnionpayProvider implements PaymentProvider {
  readonly id = "unionpay" as const;
  readonly sandbox = true;
  constructor(
    private readonly app: Pick<AppContext, "cache">,
    private readonly keys: UnionpayKeys,
  ) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (!NUMERIC[request.currencyIso])
      return { status: "failed", code: "currency", error: `Currency ${request.currencyIso} is not supported` };
    const lang = isSiteLang(request.lang) ? request.lang : "en";
    const orderId = compactUuid(request.paymentId);
    const time = txnTime();
    await saveSession(this.app, sessionOf("unionpay", request, lang, orderId, { txnTime: time, queryId: digits(21) }));
    // UnionPay's front transaction is a form the payer's browser submits to the gateway (auto-submitted with
    // JavaScript, a button without); the sandbox's gateway is its own page, which reads the order from its session.
    return {
      status: "pending",
      providerRef: orderId,
      next: {
        kind: "form",
        action: `${originOf(request.returnUrl)}${paths.paymentSandbox(lang, "unionpay", request.paymentId)}`,
        method: "get",
        fields: {
          merId: this.keys.merId,
          orderId,
          txnTime: time,
          txnAmt: String(request.amount),
          currencyCode: NUMERIC[request.currencyIso],
          frontUrl: request.returnUrl,
          backUrl: request.notifyUrl,
        },
      },
    };
  }

  /** The front return carries the same signed parameters as the notification (GET query or posted form). */
  async handleReturn(payment: { id: string }, params: URLSearchParams): Promise<ProviderEvent | null> {
    const event = this.verify(Object.fromEntries(params));
    return event && event.reference === payment.id ? event : null;
  }

  async verifyNotification(input: NotificationInput): Promise<ProviderEvent | null> {
    return this.verify(Object.fromEntries(new URLSearchParams(input.body)));
  }

  private verify(params: Record<string, string>): ProviderEvent | null {
    if (!params.signature || !rsaVerify(this.keys.unionpayPublicKey, unionpaySignContent(params), params.signature)) return null;
    if (params.merId !== this.keys.merId || !params.orderId || !params.queryId || !/^\d+$/.test(params.txnAmt ?? "")) return null;
    const currencyIso = ALPHA[params.currencyCode ?? ""];
    if (!currencyIso) return null;
    const outcome = params.respCode === "00" || params.respCode === "A6" ? "succeeded" : "failed";
    return {
      eventId: `${params.queryId}:${params.respCode}`,
      reference: expandUuid(params.orderId),
      providerRef: params.orderId,
      outcome,
      amount: Number(params.txnAmt),
      currencyIso,
      ...(outcome === "failed" ? { error: params.respMsg || params.respCode } : {}),
      data: { respCode: params.respCode, queryId: params.queryId },
    };
  }

  notificationReply(accepted: boolean): Response {
    return new Response(accepted ? "ok" : "fail", {
      status: accepted ? 200 : 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }

  async refund(): Promise<RefundResult> {
    return { ok: true, refundRef: digits(21) };
  }
}
