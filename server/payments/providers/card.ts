// Card payments, Braintree-style (PAYMENTS.md "Card"): a client token for the hosted fields, a one-time nonce
// from them, a sale submitted for settlement, webhooks signed `publicKey|hex(HMAC-SHA1(SHA1(privateKey), payload))`.
//
// The sandbox is Braintree's test mode: the test nonces, the amount rules (2000.00–2999.99 declined with the
// processor code equal to the amount, 3000.00–3000.99 failed, 5001.00 gateway rejected) and a nonce used once.
// The hosted fields are our own page (public/sandbox/card-fields.html): they turn a test card number into the
// nonce Braintree's sandbox would give for it, suffixed so that each nonce is new.
import { createHash, randomBytes } from "node:crypto";
import type { AppContext } from "../../context";
import type { ChargeRequest, ChargeResult, LookupResult, NotificationInput, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { braintreeSignature, verifyBraintreeSignature } from "./signatures";
import { parseMajor, rescaleMinor } from "#common/money";
import { currencyDigits, providerId, sandboxSecret, sandboxStore } from "./keys";

/** Braintree's processor response texts for the codes our sandbox gives (the rest: "Processor Declined"). */
export const PROCESSOR_DECLINES: Record<number, string> = {
  2000: "Do Not Honor",
  2001: "Insufficient Funds",
  2002: "Limit Exceeded",
  2003: "Cardholder's Activity Limit Exceeded",
  2004: "Expired Card",
  2005: "Invalid Credit Card Number",
  2006: "Invalid Expiration Date",
  2007: "No Account",
  2008: "Card Account Length Error",
  2009: "No Such Issuer",
  2010: "Card Issuer Declined CVV",
  2011: "Voice Authorization Required",
  2012: "Processor Declined - Possible Lost Card",
  2013: "Processor Declined - Possible Stolen Card",
  2014: "Processor Declined - Fraud Suspected",
  2015: "Transaction Not Allowed",
  2016: "Duplicate Transaction",
  2017: "Cardholder Stopped Billing",
  2018: "Cardholder Stopped All Billing",
  2019: "Invalid Transaction",
  2020: "Violation",
  2021: "Security Violation",
  2022: "Declined - Updated Cardholder Available",
  2023: "Processor Does Not Support This Feature",
  2024: "Card Type Not Enabled",
  2038: "Processor Declined",
  2046: "Declined",
  2057: "Issuer or Cardholder has put a restriction on the card",
};

export const declineText = (code: number) => PROCESSOR_DECLINES[code] ?? "Processor Declined";

/** The hosted fields' test cards (Braintree's sandbox numbers) and the nonce each one gives. */
export const TEST_CARD_NONCES: Record<string, string> = {
  "4111111111111111": "fake-valid-nonce",
  "4000111111111115": "fake-processor-declined-visa-nonce",
  "5105105105105100": "fake-processor-declined-mastercard-nonce",
  "3566002020360505": "fake-processor-failure-jcb-nonce",
  "4000111111111511": "fake-gateway-rejected-fraud-nonce",
};

/** A hosted-fields nonce: a Braintree test nonce, optionally with `~` and a random suffix (each one is new). */
const NONCE_RE = /^(fake-[a-z0-9-]+-nonce)(?:~[A-Za-z0-9_-]{8,64})?$/;
const NONCE_USED_SECONDS = 7 * 24 * 60 * 60;

const txId = () => providerId(8, "abcdefghijklmnopqrstuvwxyz0123456789");

interface CardKeys {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/** The sandbox's Braintree keys (merchant, public, private), the same in every process of this installation. */
export function sandboxCardKeys(app: Pick<AppContext, "secrets">): CardKeys {
  return {
    merchantId: `sandbox_${sandboxSecret(app, "braintree-merchant", 12)}`,
    publicKey: `sandbox_${sandboxSecret(app, "braintree-public", 16)}`,
    privateKey: sandboxSecret(app, "braintree-private"),
  };
}

/** The sandbox's webhook as Braintree posts it (form fields bt_signature, bt_payload); bt_payload is base64 JSON. */
export function sandboxCardWebhook(
  app: Pick<AppContext, "secrets">,
  kind: "transaction_settled" | "transaction_settlement_declined",
  transaction: { id: string; orderId: string; amount: string; currencyIsoCode: string },
): { bt_signature: string; bt_payload: string } {
  const keys = sandboxCardKeys(app);
  const bt_payload = Buffer.from(JSON.stringify({ kind, timestamp: new Date().toISOString(), subject: { transaction } })).toString(
    "base64",
  );
  return { bt_signature: braintreeSignature(keys.publicKey, keys.privateKey, bt_payload), bt_payload };
}

type Refusal = Extract<ChargeResult, { status: "failed" }>;
const refuse = (code: string, error: string, extra: Partial<Refusal> = {}): Refusal => ({ status: "failed", code, error, ...extra });

export class CardProvider implements PaymentProvider {
  readonly id = "card" as const;
  readonly sandbox = true;
  constructor(
    private readonly app: Pick<AppContext, "cache" | "secrets">,
    private readonly keys: CardKeys,
  ) {}

  /** The hosted fields' authorisation: base64 JSON as Braintree's, naming the sandbox's own fields page. */
  clientToken(userId: number): string {
    const expires = Date.now() + 24 * 60 * 60 * 1000;
    return Buffer.from(
      JSON.stringify({
        version: 2,
        environment: "sandbox",
        merchantId: this.keys.merchantId,
        authorizationFingerprint: `${braintreeSignature(this.keys.publicKey, this.keys.privateKey, `${userId}:${expires}`).split("|")[1]}|expires=${expires}`,
        hostedFieldsUrl: "/sandbox/card-fields.html",
      }),
    ).toString("base64");
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const nonce = request.nonce?.trim() ?? "";
    const m = NONCE_RE.exec(nonce);
    if (!m) return refuse("91565", "Unknown or expired payment_method_nonce.");
    // Used once: the first sale with a nonce consumes it (an atomic counter, shared through Redis when configured).
    const used = await this.app.cache.hit(`payments-sandbox:card-nonce:${nonce}`, NONCE_USED_SECONDS);
    const kind = m[1];
    if (used.count > 1 || kind === "fake-consumed-nonce") return refuse("93107", "Cannot use a payment_method_nonce more than once.");
    if (kind === "fake-luhn-invalid-nonce") return refuse("81715", "Credit card number is invalid.");
    if (kind.startsWith("fake-gateway-rejected-")) {
      const reason = kind.slice("fake-gateway-rejected-".length, -"-nonce".length);
      return refuse("gateway_rejected", `Gateway Rejected: ${reason}`, {
        data: { status: "gateway_rejected", gatewayRejectionReason: reason },
      });
    }
    const id = txId();
    const card = { cardType: /mastercard/.test(kind) ? "MasterCard" : /jcb/.test(kind) ? "JCB" : "Visa", ...sandboxCardIdentity(kind) };
    if (kind.startsWith("fake-processor-declined-"))
      return refuse("2000", declineText(2000), {
        providerRef: id,
        data: { status: "processor_declined", processorResponseCode: "2000", ...card },
      });
    if (kind.startsWith("fake-processor-failure-"))
      return refuse("3000", "Processor Network Unavailable - Try Again", {
        providerRef: id,
        data: { status: "failed", processorResponseCode: "3000", ...card },
      });
    if (!kind.startsWith("fake-valid-")) return refuse("91565", "Unknown or expired payment_method_nonce.");
    const sale = saleByAmount(id, request.amount, request.numDecimals, card);
    // Braintree keeps its transactions: the sandbox keeps each sale by our reference, so it can be asked later.
    if (sale.status === "succeeded")
      await sandboxStore.set(this.app, `card-sale:${request.paymentId}`, {
        id,
        amount: request.amount,
        currencyIso: request.currencyIso,
      });
    return sale;
  }

  /** Braintree's transaction search by order id: the sale made for this payment, if any. */
  async lookup(payment: { id: string; amount: number; currencyIso: string }): Promise<LookupResult> {
    const sale = await sandboxStore.get<{ id: string; amount: number; currencyIso: string }>(this.app, `card-sale:${payment.id}`);
    if (!sale) return { state: "not-found" };
    return {
      state: "settled",
      event: {
        eventId: `lookup:${sale.id}`,
        reference: payment.id,
        providerRef: sale.id,
        outcome: "succeeded",
        amount: sale.amount,
        currencyIso: sale.currencyIso,
        data: { status: "submitted_for_settlement" },
      },
    };
  }

  async handleReturn(): Promise<ProviderEvent | null> {
    return null;
  }

  async verifyNotification(input: NotificationInput): Promise<ProviderEvent | null> {
    const form = new URLSearchParams(input.body);
    const signature = form.get("bt_signature") ?? "";
    const payload = form.get("bt_payload") ?? "";
    if (!signature || !payload || !verifyBraintreeSignature(signature, payload, this.keys.publicKey, this.keys.privateKey)) return null;
    let parsed: { kind?: string; subject?: { transaction?: { id?: string; orderId?: string; amount?: string; currencyIsoCode?: string } } };
    try {
      parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
    } catch {
      return null;
    }
    const tx = parsed.subject?.transaction;
    const outcome =
      parsed.kind === "transaction_settled" ? "succeeded" : parsed.kind === "transaction_settlement_declined" ? "failed" : null;
    if (!tx?.id || !tx.orderId || !tx.amount || !tx.currencyIsoCode || !outcome) return null;
    return {
      eventId: `${parsed.kind}:${tx.id}`,
      reference: tx.orderId,
      providerRef: tx.id,
      outcome,
      amount: parseMajor(tx.amount, currencyDigits(tx.currencyIsoCode), { allowZero: true }) ?? Number.NaN,
      currencyIso: tx.currencyIsoCode,
      data: { kind: parsed.kind },
    };
  }

  notificationReply(accepted: boolean): Response {
    return new Response(null, { status: accepted ? 200 : 400 });
  }

  async refund(): Promise<RefundResult> {
    return { ok: true, refundRef: txId() };
  }
}

/**
 * What Braintree tells of the card behind a nonce: its last four digits and `uniqueNumberIdentifier` (the same for
 * every use of one card number, whoever pays). In the sandbox a nonce's kind is its test card (issue 25: the
 * referrals area refuses a referral between accounts that paid with one card).
 */
export function sandboxCardIdentity(kind: string): { last4: string; uniqueNumberIdentifier: string } {
  const number = Object.entries(TEST_CARD_NONCES).find(([, k]) => k === kind)?.[0] ?? "4111111111111111";
  return { last4: number.slice(-4), uniqueNumberIdentifier: createHash("sha256").update(`card:${number}`).digest("hex").slice(0, 32) };
}

/** Braintree's sandbox amount rules, for a valid nonce. */
export function saleByAmount(id: string, amount: number, numDecimals: number, data: Record<string, unknown> = {}): ChargeResult {
  const cents = rescaleMinor(amount, numDecimals, 2);
  if (cents >= 200000 && cents <= 299999) {
    const code = Math.floor(cents / 100);
    return refuse(String(code), declineText(code), {
      providerRef: id,
      data: { ...data, status: "processor_declined", processorResponseCode: String(code) },
    });
  }
  if (cents >= 300000 && cents <= 300099)
    return refuse("3000", "Processor Network Unavailable - Try Again", {
      providerRef: id,
      data: { ...data, status: "failed", processorResponseCode: "3000" },
    });
  if (cents === 500100)
    return refuse("gateway_rejected", "Gateway Rejected: application_incomplete", {
      data: { ...data, status: "gateway_rejected", gatewayRejectionReason: "application_incomplete" },
    });
  return { status: "succeeded", providerRef: id, data: { ...data, status: "submitted_for_settlement", processorResponseCode: "1000" } };
}

/** A fresh nonce of the hosted fields for a card number (what public/sandbox/card-fields.js computes in the page). */
export function sandboxNonceFor(cardNumber: string): string {
  const digits = cardNumber.replace(/\D/g, "");
  const kind = !luhnValid(digits) ? "fake-luhn-invalid-nonce" : (TEST_CARD_NONCES[digits] ?? "fake-valid-nonce");
  return `${kind}~${randomBytes(12).toString("base64url")}`;
}

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
