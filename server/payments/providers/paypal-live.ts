// PayPal Orders v2 over its REST API (PAYMENTS.md "PayPal"), used when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET
// are set (ADR 036). The same flow as the sandbox (paypal.ts): create (CREATED) → the payer approves at the
// `payer-action`/`approve` link → back to return_url?token&PayerID → capture (COMPLETED); a test decline is the
// PayPal-Mock-Response header on capture. Our payment id travels as custom_id and comes back on the capture.
import type { ChargeRequest, ChargeResult, NotificationInput, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { majorText, parseMajor } from "#common/money";
import { currencyDigits } from "./keys";

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
  /** https://api-m.paypal.com, or https://api-m.sandbox.paypal.com for PayPal's own sandbox. */
  apiUrl: string;
  webhookId?: string;
}

interface Link {
  rel: string;
  href: string;
}

interface CaptureBody {
  id?: string;
  status?: string;
  details?: { issue?: string; description?: string }[];
  purchase_units?: {
    payments?: { captures?: { id: string; status: string; custom_id?: string; amount: { currency_code: string; value: string } }[] };
  }[];
}

export class PaypalLiveProvider implements PaymentProvider {
  readonly id = "paypal" as const;
  readonly sandbox = false;
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly credentials: PaypalCredentials,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;
    const basic = Buffer.from(`${this.credentials.clientId}:${this.credentials.clientSecret}`).toString("base64");
    const res = await this.fetchImpl(`${this.credentials.apiUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    if (!res.ok) throw new Error(`PayPal token: HTTP ${res.status}`);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return body.access_token;
  }

  private async call(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
    const res = await this.fetchImpl(`${this.credentials.apiUrl}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await this.accessToken()}`, "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json().catch(() => ({})) };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const { status, json } = await this.call(
      "/v2/checkout/orders",
      {
        intent: "CAPTURE",
        purchase_units: [
          {
            reference_id: request.paymentId,
            custom_id: request.paymentId,
            description: request.description.slice(0, 127),
            amount: { currency_code: request.currencyIso, value: majorText(request.amount, request.numDecimals) },
          },
        ],
        application_context: { return_url: request.returnUrl, cancel_url: request.cancelUrl, user_action: "PAY_NOW" },
      },
      // PayPal's own idempotency: a retried create returns the same order.
      { "PayPal-Request-Id": `create-${request.paymentId}` },
    );
    const order = json as { id?: string; status?: string; links?: Link[]; message?: string };
    const approve = order.links?.find((l) => l.rel === "payer-action" || l.rel === "approve")?.href;
    if (status >= 300 || !order.id || !approve) return { status: "failed", error: order.message ?? `HTTP ${status}`, code: String(status) };
    return { status: "pending", providerRef: order.id, next: { kind: "redirect", url: approve }, data: { status: order.status } };
  }

  async handleReturn(
    payment: { id: string; providerRef: string | null; amount: number; currencyIso: string },
    params: URLSearchParams,
  ): Promise<ProviderEvent | null> {
    const token = params.get("token");
    if (!token || token !== payment.providerRef) return null;
    const base = { reference: payment.id, providerRef: token, amount: payment.amount, currencyIso: payment.currencyIso };
    if (!params.get("PayerID")) return { ...base, eventId: `cancel:${token}`, outcome: "cancelled", error: "ORDER_NOT_APPROVED" };
    const { status, json } = await this.call(
      `/v2/checkout/orders/${encodeURIComponent(token)}/capture`,
      {},
      { "PayPal-Request-Id": `capture-${token}` },
    );
    const body = json as CaptureBody;
    const capture = body.purchase_units?.[0]?.payments?.captures?.[0];
    if (status < 300 && body.status === "COMPLETED" && capture) {
      const digits = currencyDigits(capture.amount.currency_code);
      return {
        eventId: `capture:${token}`,
        reference: capture.custom_id ?? payment.id,
        providerRef: token,
        outcome: "succeeded",
        amount: parseMajor(capture.amount.value, digits, { allowZero: true }) ?? Number.NaN,
        currencyIso: capture.amount.currency_code,
        data: { status: body.status, captureId: capture.id },
      };
    }
    const issue = body.details?.[0]?.issue ?? `HTTP ${status}`;
    return { ...base, eventId: `capture-declined:${token}:${Date.now()}`, outcome: "failed", error: issue, data: { issue } };
  }

  /** Webhooks are checked by PayPal's verify endpoint; without PAYPAL_WEBHOOK_ID none is accepted. */
  async verifyNotification(input: NotificationInput): Promise<ProviderEvent | null> {
    if (!this.credentials.webhookId) return null;
    let event: {
      id?: string;
      event_type?: string;
      resource?: { id?: string; custom_id?: string; amount?: { currency_code: string; value: string } };
    };
    try {
      event = JSON.parse(input.body);
    } catch {
      return null;
    }
    const h = (name: string) => input.headers.get(name) ?? "";
    const { status, json } = await this.call("/v1/notifications/verify-webhook-signature", {
      auth_algo: h("paypal-auth-algo"),
      cert_url: h("paypal-cert-url"),
      transmission_id: h("paypal-transmission-id"),
      transmission_sig: h("paypal-transmission-sig"),
      transmission_time: h("paypal-transmission-time"),
      webhook_id: this.credentials.webhookId,
      webhook_event: event,
    });
    if (status >= 300 || (json as { verification_status?: string }).verification_status !== "SUCCESS") return null;
    const r = event.resource;
    const outcome =
      event.event_type === "PAYMENT.CAPTURE.COMPLETED" ? "succeeded" : event.event_type === "PAYMENT.CAPTURE.DENIED" ? "failed" : null;
    if (!outcome || !event.id || !r?.custom_id || !r.amount) return null;
    return {
      eventId: event.id,
      reference: r.custom_id,
      // Our providerRef is the order id; a capture event names the capture, so the order id is looked up by PayPal's link-up
      // (supplementary_data.related_ids.order_id).
      providerRef:
        (event as { resource?: { supplementary_data?: { related_ids?: { order_id?: string } } } }).resource?.supplementary_data?.related_ids
          ?.order_id ??
        r.id ??
        "",
      outcome,
      amount: parseMajor(r.amount.value, currencyDigits(r.amount.currency_code), { allowZero: true }) ?? Number.NaN,
      currencyIso: r.amount.currency_code,
    };
  }

  notificationReply(accepted: boolean): Response {
    return new Response(null, { status: accepted ? 200 : 400 });
  }

  /** Refunds the order's capture (found through the order). */
  async refund(payment: { id: string; providerRef: string; amount: number; currencyIso: string }, amount: number): Promise<RefundResult> {
    const res = await this.fetchImpl(`${this.credentials.apiUrl}/v2/checkout/orders/${encodeURIComponent(payment.providerRef)}`, {
      headers: { Authorization: `Bearer ${await this.accessToken()}` },
    });
    const order = (await res.json().catch(() => ({}))) as CaptureBody;
    const captureId = order.purchase_units?.[0]?.payments?.captures?.[0]?.id;
    if (!captureId) return { ok: false, error: "capture-not-found" };
    const digits = currencyDigits(payment.currencyIso);
    const { status, json } = await this.call(`/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
      amount: { currency_code: payment.currencyIso, value: majorText(amount, digits) },
    });
    const refund = json as { id?: string; status?: string; message?: string };
    return status < 300 && refund.id ? { ok: true, refundRef: refund.id } : { ok: false, error: refund.message ?? `HTTP ${status}` };
  }
}
