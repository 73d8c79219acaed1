// The one interface every payment provider sits behind (issue 12 §2, ADR 034). Each provider has a built-in
// sandbox that behaves like the provider's own test mode (../shared/PAYMENTS.md): the same flow, the same test
// values and declines, signed notifications. With real credentials in the environment the same interface talks
// to the provider; nothing above this layer knows which one runs.
//
// Amounts are integer minor units of `currencyIso`, computed by the server (server/payments/service.ts); a
// provider never decides an amount. Our reference is the payment's id (payments.id): every notification is
// checked against it, against the amount and against the currency before anything is marked paid.
import type { ProviderId } from "#common/payments/methods";
import type { SiteLang } from "#common/i18n";

export type { ProviderId };

export interface Payer {
  name: string;
  email: string;
  /** CPF or CNPJ for the Brazilian methods, digits (and letters, for the alphanumeric CNPJ) only. */
  taxId?: { type: "CPF" | "CNPJ"; number: string };
  address?: {
    address1: string;
    address2?: string | null;
    city: string;
    state?: string | null;
    zip?: string | null;
    countryIso2: string;
  };
  phone?: string | null;
}

export interface ChargeRequest {
  /** Our reference: the payments row's id (a UUID). */
  paymentId: string;
  amount: number;
  currencyIso: string;
  numDecimals: number;
  /** "Order RS1001", "Invoices INV1001, INV1002": shown by the provider to the payer. */
  description: string;
  lang: SiteLang;
  payer: Payer;
  /** Absolute URLs on our origin: where the payer comes back to, where the provider posts notifications. */
  returnUrl: string;
  cancelUrl: string;
  notifyUrl: string;
  /** Card: the one-time nonce the hosted fields produced. */
  nonce?: string;
  /** Allpago card: 1–6. */
  installments?: number;
  /** Allpago: the checkout the widget completed. */
  checkoutId?: string;
  /** PayPal test mode: forces a decline on capture (the PayPal-Mock-Response header's value). */
  mockResponse?: string;
}

/** What the researcher does next when a payment is not settled at once. */
export type NextAction =
  /** Send the browser to the provider (PayPal approve link, UnionPay front page). */
  | { kind: "redirect"; url: string }
  /** Post a form to the provider (Alipay page pay, Allpago): auto-submitted with JS, a button without. */
  | { kind: "form"; action: string; method: "post" | "get"; fields: Record<string, string> }
  /** Show a QR code to scan (Alipay precreate, WeChat Pay native): `content` is the code's text. */
  | { kind: "qr"; content: string; expiresAt: string }
  /** A boleto to pay at a bank: the 47-digit typed line, the 44-digit barcode, the due date (YYYY-MM-DD). */
  | { kind: "boleto"; line: string; barcode: string; dueOn: string };

export type ChargeResult =
  /** Settled: the money is ours (a card sale submitted for settlement). */
  | { status: "succeeded"; providerRef: string; data?: Record<string, unknown> }
  /** Created; waits for the payer and then the provider's confirmation. */
  | { status: "pending"; providerRef: string; next: NextAction; data?: Record<string, unknown> }
  /**
   * Refused. `error` is the provider's own text ("Do Not Honor", "Insufficient Funds"), shown to the researcher
   * in 'There was a problem saving your payment: %(error)s.'; `code` its code (2000, "INSTRUMENT_DECLINED").
   * No money moved; `providerRef` when the provider created a transaction anyway (a processor decline).
   */
  | { status: "failed"; error: string; code?: string; providerRef?: string; data?: Record<string, unknown> };

/**
 * A provider's word about a payment, verified: from a signed notification, or from the provider's own answer
 * when the payer returned (PayPal capture, Allpago result). `eventId` makes it unique: a replay of the same
 * event is recorded once and changes nothing.
 */
export interface ProviderEvent {
  eventId: string;
  /** Our payment id, as the provider echoes it (out_trade_no, custom_id, merchantTransactionId…). */
  reference: string;
  providerRef: string;
  outcome: "succeeded" | "failed" | "cancelled" | "refunded";
  /** As the provider states them: the service compares them with the payment's own before acting. */
  amount: number;
  currencyIso: string;
  /** The provider's text for a failure. */
  error?: string;
  data?: Record<string, unknown>;
}

export interface NotificationInput {
  headers: Headers;
  /** The raw body exactly as received: signatures are over these bytes. */
  body: string;
  query: URLSearchParams;
}

export type RefundResult = { ok: true; refundRef: string } | { ok: false; error: string };

export interface PaymentProvider {
  readonly id: ProviderId;
  /** True when this is the built-in sandbox (labelled "test mode" wherever a researcher sees it). */
  readonly sandbox: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * The payer came back to `returnUrl` (GET query, or a posted form). Asks the provider (PayPal: capture;
   * Allpago: fetch the result by checkout id) and answers what happened; null when the parameters are not a
   * return of this payment.
   */
  handleReturn(
    payment: { id: string; providerRef: string | null; amount: number; currencyIso: string },
    params: URLSearchParams,
  ): Promise<ProviderEvent | null>;
  /** A signed asynchronous notification: the verified event, or null when the signature does not hold. */
  verifyNotification(input: NotificationInput): Promise<ProviderEvent | null>;
  /** The answer the provider expects (Alipay: the text `success`; WeChat: 204 with no body). */
  notificationReply(accepted: boolean): Response;
  refund(payment: { id: string; providerRef: string; amount: number; currencyIso: string }, amount: number): Promise<RefundResult>;
  /**
   * What the provider knows of a payment now (the recovery job asks about attempts left `processing` or `pending`
   * too long, ADR 051): its outcome as an event, `pending` while it still waits, `not-found` when no charge was
   * ever made. Absent (or null) when the provider cannot be asked: the attempt is left for staff.
   */
  lookup?(payment: { id: string; providerRef: string | null; amount: number; currencyIso: string }): Promise<LookupResult | null>;
}

export type LookupResult = { state: "settled"; event: ProviderEvent } | { state: "pending" } | { state: "not-found" };
