// PayPal, Orders v2 (PAYMENTS.md "PayPal"): create an order (CREATED) → the payer approves at its `approve` link
// → PayPal returns to return_url?token=…&PayerID=… → capture → COMPLETED; cancelling returns to cancel_url. A
// decline is forced in test mode with PayPal-Mock-Response {"mock_application_codes":"INSTRUMENT_DECLINED"} on
// capture (ChargeRequest.mockResponse).
//
// The sandbox keeps its orders in the sandbox store; its approve link is our own page
// (paths.paymentSandbox(lang, "paypal", paymentId)), which shows the amount, "test mode", Approve and Cancel.
import { paths } from "#common/paths";
import { isSiteLang } from "#common/i18n";
import type { AppContext } from "../../context";
import type { ChargeRequest, ChargeResult, PaymentProvider, ProviderEvent, RefundResult, LookupResult } from "./types";
import { loadSession, originOf, providerId, saveSession, withQuery, type SandboxSession } from "./keys";

/** The sandbox's stand-in for PayPal's approval: the order is APPROVED by this payer; where the browser goes. */
export async function approvePaypalOrder(app: Pick<AppContext, "cache">, session: SandboxSession): Promise<string> {
  const payerId = providerId(13);
  await saveSession(app, { ...session, status: "APPROVED", extra: { ...session.extra, payerId } });
  return withQuery(session.returnUrl, { token: session.providerRef, PayerID: payerId });
}

export async function cancelPaypalOrder(app: Pick<AppContext, "cache">, session: SandboxSession): Promise<string> {
  await saveSession(app, { ...session, status: "VOIDED" });
  return withQuery(session.cancelUrl, { token: session.providerRef });
}

export class PaypalProvider implements PaymentProvider {
  readonly id = "paypal" as const;
  readonly sandbox = true;
  constructor(private readonly app: Pick<AppContext, "cache">) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const orderId = providerId(17);
    const lang = isSiteLang(request.lang) ? request.lang : "en";
    await saveSession(this.app, {
      provider: "paypal",
      paymentId: request.paymentId,
      providerRef: orderId,
      amount: request.amount,
      currencyIso: request.currencyIso,
      numDecimals: request.numDecimals,
      description: request.description,
      lang,
      returnUrl: request.returnUrl,
      cancelUrl: request.cancelUrl,
      status: "CREATED",
      extra: request.mockResponse ? { mockResponse: request.mockResponse } : {},
    });
    const approve = `${originOf(request.returnUrl)}${paths.paymentSandbox(lang, "paypal", request.paymentId, { token: orderId })}`;
    return { status: "pending", providerRef: orderId, next: { kind: "redirect", url: approve }, data: { status: "CREATED" } };
  }

  /** The payer came back with ?token=&PayerID=: capture the order (COMPLETED, or INSTRUMENT_DECLINED when mocked). */
  async handleReturn(
    payment: { id: string; providerRef: string | null; amount: number; currencyIso: string },
    params: URLSearchParams,
  ): Promise<ProviderEvent | null> {
    const token = params.get("token");
    if (!token || token !== payment.providerRef) return null;
    const session = await loadSession(this.app, "paypal", payment.id);
    if (!session || session.providerRef !== token) return null;
    const base = { reference: session.paymentId, providerRef: token, amount: session.amount, currencyIso: session.currencyIso };
    if (session.status === "VOIDED" || (session.status === "CREATED" && !params.get("PayerID")))
      return { ...base, eventId: `cancel:${token}`, outcome: "cancelled", error: "ORDER_NOT_APPROVED" };
    if (session.status === "COMPLETED")
      return { ...base, eventId: `capture:${token}`, outcome: "succeeded", data: { status: "COMPLETED", payerId: session.extra?.payerId } };
    if (session.status !== "APPROVED" || params.get("PayerID") !== session.extra?.payerId) return null;
    if (session.extra?.mockResponse?.includes("INSTRUMENT_DECLINED")) {
      // PayPal answers 422 UNPROCESSABLE_ENTITY and the order stays APPROVED: the payer may choose another funding source.
      return {
        ...base,
        eventId: `capture-declined:${token}:${Date.now()}`,
        outcome: "failed",
        error: "INSTRUMENT_DECLINED",
        data: { issue: "INSTRUMENT_DECLINED" },
      };
    }
    await saveSession(this.app, { ...session, status: "COMPLETED" });
    // The capture names its payer (payer.payer_id): the instrument's identity (issue 25, referrals).
    return { ...base, eventId: `capture:${token}`, outcome: "succeeded", data: { status: "COMPLETED", payerId: session.extra?.payerId } };
  }

  /** PayPal's webhooks are verified by PayPal's own verify endpoint; the sandbox sends none (captures are synchronous). */
  async verifyNotification(): Promise<ProviderEvent | null> {
    return null;
  }

  notificationReply(accepted: boolean): Response {
    return new Response(null, { status: accepted ? 200 : 400 });
  }

  async refund(): Promise<RefundResult> {
    return { ok: true, refundRef: providerId(17) };
  }

  /** GET /v2/checkout/orders/{id}: captured, voided, or still waiting for the payer (CREATED, APPROVED). */
  async lookup(payment: { id: string; providerRef: string | null }): Promise<LookupResult> {
    const session = await loadSession(this.app, "paypal", payment.id);
    if (!session) return { state: "not-found" };
    const base = {
      reference: session.paymentId,
      providerRef: session.providerRef,
      amount: session.amount,
      currencyIso: session.currencyIso,
    };
    if (session.status === "COMPLETED")
      return {
        state: "settled",
        event: { ...base, eventId: `capture:${session.providerRef}`, outcome: "succeeded", data: { status: "COMPLETED" } },
      };
    if (session.status === "VOIDED")
      return {
        state: "settled",
        event: { ...base, eventId: `cancel:${session.providerRef}`, outcome: "cancelled", error: "ORDER_VOIDED" },
      };
    return { state: "pending" };
  }
}
