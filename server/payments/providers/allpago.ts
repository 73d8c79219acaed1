// Allpago, OPPWA-style (PAYMENTS.md "Allpago"): the server creates a checkout (amount, currency, installments) and
// gets its id; the embedded widget takes the card and posts it to the checkout; the result is fetched by checkout
// id, and success is decided by the result code, never by the HTTP status: codes matching
// `^(000\.000\.|000\.100\.1|000\.[36])` are successful. Methods 22 (Allpago PayPal: the payer approves on the
// provider's page) and 23 (card with 1–6 installments, in the widget).
//
// The sandbox keeps checkouts in the sandbox store; its widget is our own page (GET /api/payment/allpago-checkout),
// its PayPal approval page our sandbox page. Test cards give success (000.100.110) or a decline (800.100.151…).
import { randomBytes } from "node:crypto";
import { paths } from "#common/paths";
import { isSiteLang } from "#common/i18n";
import type { AppContext } from "../../context";
import type { ChargeRequest, ChargeResult, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { originOf, saveSession, sandboxStore, sessionOf, withQuery } from "./keys";
import { luhnValid } from "./card";

export const ALLPAGO_SUCCESS = /^(000\.000\.|000\.100\.1|000\.[36])/;
export const isAllpagoSuccess = (code: string) => ALLPAGO_SUCCESS.test(code);

/** OPPWA's descriptions of the result codes the sandbox gives. */
export const ALLPAGO_RESULTS: Record<string, string> = {
  "000.100.110": "Request successfully processed in 'Merchant in Integrator Test Mode'",
  "000.200.000": "transaction pending",
  "100.100.101": "invalid creditcard, bank account number or bank name",
  "100.396.101": "Cancelled by user",
  "800.100.151": "transaction declined (invalid card)",
  "800.100.152": "transaction declined by authorization system",
  "800.100.155": "transaction declined (amount exceeds credit)",
  "800.100.162": "transaction declined (limit exceeded)",
};

/** The sandbox's test cards: these decline with their code; any other valid number succeeds. */
export const ALLPAGO_TEST_DECLINES: Record<string, string> = {
  "4000000000000002": "800.100.151",
  "5105105105105100": "800.100.152",
  "4000000000009995": "800.100.155",
  "4000000000000069": "800.100.162",
};

export interface AllpagoCheckout {
  id: string;
  userId: number;
  receiptCode: string;
  amount: number;
  currencyIso: string;
  installments: number;
  brand: "CARD" | "PAYPAL";
  /** Set when the widget (or the PayPal approval) completed; null while open. */
  resultCode: string | null;
  /** The payment this checkout pays, once charged (a checkout pays one payment). */
  paymentId: string | null;
  last4?: string;
  createdAt: string;
}

const key = (id: string) => `allpago-checkout:${id}`;
const CHECKOUT_ID_RE = /^[0-9A-F]{32}\.sbx$/;

export async function createAllpagoCheckout(
  app: Pick<AppContext, "cache">,
  input: { userId: number; receiptCode: string; amount: number; currencyIso: string; installments: number; brand?: "CARD" | "PAYPAL" },
): Promise<AllpagoCheckout> {
  const checkout: AllpagoCheckout = {
    id: `${randomBytes(16).toString("hex").toUpperCase()}.sbx`,
    userId: input.userId,
    receiptCode: input.receiptCode,
    amount: input.amount,
    currencyIso: input.currencyIso,
    installments: input.installments,
    brand: input.brand ?? "CARD",
    resultCode: null,
    paymentId: null,
    createdAt: new Date().toISOString(),
  };
  await sandboxStore.set(app, key(checkout.id), checkout);
  return checkout;
}

export async function findAllpagoCheckout(app: Pick<AppContext, "cache">, id: string): Promise<AllpagoCheckout | null> {
  if (!CHECKOUT_ID_RE.test(id)) return null;
  return (await sandboxStore.get<AllpagoCheckout>(app, key(id))) ?? null;
}

const saveCheckout = (app: Pick<AppContext, "cache">, c: AllpagoCheckout) => sandboxStore.set(app, key(c.id), c);

/**
 * The widget posts the card to the checkout (the provider's side): the result code the card gives. A checkout
 * takes one card; a second post answers the first result.
 */
export async function payAllpagoCheckout(
  app: Pick<AppContext, "cache">,
  id: string,
  card: { number: string; holder: string; expiry: string; cvv: string },
): Promise<{ code: string; description: string } | null> {
  const checkout = await findAllpagoCheckout(app, id);
  if (!checkout || checkout.brand !== "CARD") return null;
  if (!checkout.resultCode) {
    const digits = card.number.replace(/\D/g, "");
    const complete = card.holder.trim() && /^\d{2}\s*\/\s*\d{2,4}$/.test(card.expiry.trim()) && /^\d{3,4}$/.test(card.cvv.trim());
    checkout.resultCode = !luhnValid(digits) || !complete ? "100.100.101" : (ALLPAGO_TEST_DECLINES[digits] ?? "000.100.110");
    checkout.last4 = digits.slice(-4);
    await saveCheckout(app, checkout);
  }
  return { code: checkout.resultCode, description: ALLPAGO_RESULTS[checkout.resultCode] ?? "" };
}

/** The sandbox's PayPal approval (method 22): the checkout's result and where the browser goes. */
export async function decideAllpagoPaypal(app: Pick<AppContext, "cache">, checkoutId: string, approve: boolean, returnUrl: string) {
  const checkout = await findAllpagoCheckout(app, checkoutId);
  if (!checkout || checkout.brand !== "PAYPAL") return null;
  if (!checkout.resultCode) {
    checkout.resultCode = approve ? "000.100.110" : "100.396.101";
    await saveCheckout(app, checkout);
  }
  return withQuery(returnUrl, { id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` });
}

export class AllpagoProvider implements PaymentProvider {
  readonly id = "allpago" as const;
  readonly sandbox = true;
  constructor(private readonly app: Pick<AppContext, "cache">) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const lang = isSiteLang(request.lang) ? request.lang : "en";
    if (!request.checkoutId) {
      // Allpago PayPal: a checkout of brand PAYPAL, approved on the provider's page.
      const checkout = await createAllpagoCheckout(this.app, {
        userId: 0,
        receiptCode: request.paymentId,
        amount: request.amount,
        currencyIso: request.currencyIso,
        installments: 1,
        brand: "PAYPAL",
      });
      await saveCheckout(this.app, { ...checkout, paymentId: request.paymentId });
      await saveSession(this.app, sessionOf("allpago", request, lang, checkout.id, { brand: "PAYPAL" }));
      const url = `${originOf(request.returnUrl)}${paths.paymentSandbox(lang, "allpago", request.paymentId)}`;
      return { status: "pending", providerRef: checkout.id, next: { kind: "redirect", url } };
    }
    const checkout = await findAllpagoCheckout(this.app, request.checkoutId);
    if (!checkout || checkout.brand !== "CARD") return { status: "failed", code: "200.300.404", error: "invalid or missing parameter" };
    if (checkout.paymentId && checkout.paymentId !== request.paymentId)
      return { status: "failed", code: "700.400.100", error: "cannot capture (PA value exceeded, PA reverted or invalid workflow?)" };
    if (checkout.amount !== request.amount || checkout.currencyIso !== request.currencyIso)
      return { status: "failed", code: "100.550.300", error: "request contains no amount or too low amount" };
    await saveCheckout(this.app, {
      ...checkout,
      paymentId: request.paymentId,
      installments: request.installments ?? checkout.installments,
    });
    // The widget already posted the card: the browser goes to the shopper result URL, which fetches the result.
    const url = withQuery(request.returnUrl, { id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` });
    return { status: "pending", providerRef: checkout.id, next: { kind: "redirect", url }, data: { installments: checkout.installments } };
  }

  /** The shopper result URL (?id=checkoutId): the result fetched by checkout id. Null while no result exists. */
  async handleReturn(payment: { id: string; providerRef: string | null }, params: URLSearchParams): Promise<ProviderEvent | null> {
    const id = params.get("id") ?? "";
    if (!id || id !== payment.providerRef) return null;
    const checkout = await findAllpagoCheckout(this.app, id);
    if (!checkout || checkout.paymentId !== payment.id || !checkout.resultCode) return null;
    const code = checkout.resultCode;
    const outcome = isAllpagoSuccess(code) ? "succeeded" : code === "100.396.101" ? "cancelled" : "failed";
    return {
      eventId: `${checkout.id}:${code}`,
      reference: payment.id,
      providerRef: checkout.id,
      outcome,
      amount: checkout.amount,
      currencyIso: checkout.currencyIso,
      ...(outcome === "succeeded" ? {} : { error: ALLPAGO_RESULTS[code] ?? code }),
      data: {
        resultCode: code,
        installments: checkout.installments,
        brand: checkout.brand,
        ...(checkout.last4 ? { last4: checkout.last4 } : {}),
      },
    };
  }

  /** Results are fetched by checkout id; the sandbox sends no webhooks. */
  async verifyNotification(): Promise<ProviderEvent | null> {
    return null;
  }

  notificationReply(accepted: boolean): Response {
    return new Response(null, { status: accepted ? 200 : 400 });
  }

  async refund(): Promise<RefundResult> {
    return { ok: true, refundRef: randomBytes(16).toString("hex").toUpperCase() };
  }
}
