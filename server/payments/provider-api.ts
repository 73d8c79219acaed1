// The providers' endpoints (issue 12 §2, spec 2 §7): notifications from providers (server to server, raw body,
// no session), the payer's return from a provider, the pending payment's status for polling, the card fields'
// client token, the Allpago widget and its sandbox card post, and the boleto's PDF.
import { errorStatus, fail, ok } from "#common/result";
import { allpagoCardBody, allpagoCheckoutQuery } from "#common/payments/sandbox-schemas";
import { INSTALLMENTS_MAX } from "#common/payments/methods";
import { endpoint, reply, seeOther, type EndpointTable } from "../http/api/endpoint";
import { NOTIFICATION_MAX_BYTES, receiveNotification, receiveReturn, whereNext } from "./notify";
import { createAllpagoCheckout, findAllpagoCheckout, getProvider, isAllpagoSuccess, payAllpagoCheckout } from "./providers";
import { CardProvider } from "./providers/card";
import { parseMajor } from "#common/money";
import { currencyDigits } from "./providers/keys";
import { declineReasonOf, ownPayment, paymentLang } from "./read";
import { boletoPdf } from "./boleto-pdf";
import { allpagoWidgetHtml } from "./allpago-widget";

/** The body as text, refused past `max` bytes (a notification is a few KiB). */
async function readText(request: Request, max: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const html = (body: string, status = 200) =>
  new Response(body, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" },
  });

export const providerApi: EndpointTable = [
  endpoint({
    method: "POST",
    path: "/api/payment/notify/:provider",
    auth: "none",
    body: "stream",
    summary:
      "A provider's asynchronous notification (raw body, verified by the provider's signature): answered as the provider expects (Alipay `success`, WeChat Pay 204…); forged or mismatching 400; unknown provider 404.",
    async handler({ scope, params, webRequest, req }) {
      const request = webRequest();
      const body = await readText(request, NOTIFICATION_MAX_BYTES);
      if (body === null) return reply({ error: "payload-too-large" }, { status: errorStatus("payload-too-large") });
      const query = new URLSearchParams(req.originalUrl.split("?")[1] ?? "");
      const answer = await receiveNotification(scope.app, params.provider, { headers: request.headers, body, query });
      return answer ?? fail("not-found");
    },
  }),
  ...(["GET", "POST"] as const).map((method) =>
    endpoint({
      method,
      path: "/api/payment/return/:provider/:paymentId",
      auth: "optional",
      body: method === "POST" ? "stream" : undefined,
      summary: `The payer's browser back from the provider (${method === "GET" ? "query" : "posted form"}): the provider's answer is applied, then 303 to the pending page or the payment's landing.`,
      async handler({ scope, params, req, webRequest }) {
        const query = new URLSearchParams(req.originalUrl.split("?")[1] ?? "");
        if (method === "POST") {
          const form = await readText(webRequest(), NOTIFICATION_MAX_BYTES);
          if (form === null) return reply({ error: "payload-too-large" }, { status: errorStatus("payload-too-large") });
          for (const [k, v] of new URLSearchParams(form)) query.set(k, v);
        }
        const next = await receiveReturn(scope.app, params.provider, params.paymentId, query);
        return next ? seeOther(next) : fail("not-found");
      },
    }),
  ),
  endpoint({
    method: "GET",
    path: "/api/payment/:paymentId/status",
    auth: "user",
    summary: "The user's own payment for polling: {paymentId, status, amount, currencyIso, sandbox, error, nextUrl}; another user's: 404.",
    async handler({ scope, params }) {
      const payment = await ownPayment(scope, params.paymentId);
      if (!payment) return fail("not-found");
      return ok({
        paymentId: payment.id,
        status: payment.status,
        amount: payment.amount,
        currencyIso: payment.currencyIso,
        sandbox: payment.sandbox,
        // A reason key (payment:declines.*), not the provider's text (kept for staff).
        error: payment.status === "failed" || payment.status === "cancelled" ? declineReasonOf(payment) : null,
        nextUrl: whereNext(paymentLang(payment), payment),
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/payment/braintree-client-token",
    auth: "user",
    summary:
      "The client token of the card fields: {clientToken} (base64 JSON naming the hosted-fields page; the sandbox's own while in test mode).",
    handler({ scope }) {
      const card = getProvider(scope.app, "card");
      if (!(card instanceof CardProvider)) return fail("provider-unavailable");
      return ok({ clientToken: card.clientToken(scope.userId!), sandbox: card.sandbox });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/payment/allpago-checkout",
    auth: "user",
    query: allpagoCheckoutQuery,
    summary:
      "Creates an Allpago checkout (receiptCode, amount in BRL like 500.00, numberOfInstallments 1–6) and answers the widget's HTML page for an iframe; it posts window messages {checkoutId, height, saving}.",
    async handler({ scope, query }) {
      const currencyIso = (query.currency ?? "BRL").toUpperCase();
      const digits = currencyDigits(currencyIso);
      const amount = parseMajor(query.amount ?? "", digits, { allowZero: true }) ?? Number.NaN;
      const installments = Number(query.numberOfInstallments ?? "1");
      if (!Number.isSafeInteger(amount) || amount <= 0)
        return reply({ error: "invalid-amount", fieldErrors: { amount: "invalid-amount" } }, { status: 400 });
      if (!Number.isInteger(installments) || installments < 1 || installments > INSTALLMENTS_MAX)
        return reply({ error: "invalid-installments", fieldErrors: { numberOfInstallments: "invalid-installments" } }, { status: 400 });
      if (getProvider(scope.app, "allpago").sandbox !== true) return fail("provider-unavailable");
      const checkout = await createAllpagoCheckout(scope.app, {
        userId: scope.userId!,
        receiptCode: (query.receiptCode ?? "").slice(0, 64),
        amount,
        currencyIso,
        installments,
      });
      const currency = await scope.app.db
        .selectFrom("currencies")
        .select(["sign", "num_decimals"])
        .where("iso_code", "=", currencyIso)
        .executeTakeFirst();
      return html(
        allpagoWidgetHtml(scope.lang, checkout, { isoCode: currencyIso, sign: currency?.sign ?? `${currencyIso} `, numDecimals: digits }),
      );
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/payment/allpago-checkout/:checkoutId/pay",
    auth: "user",
    body: allpagoCardBody,
    summary: "The sandbox widget's card post to its checkout (the provider's side): {checkoutId, result: {code, description}, success}.",
    async handler({ scope, params, body }) {
      const checkout = await findAllpagoCheckout(scope.app, params.checkoutId);
      if (!checkout || checkout.userId !== scope.userId) return fail("not-found");
      const result = await payAllpagoCheckout(scope.app, checkout.id, body);
      if (!result) return fail("not-found");
      return ok({ checkoutId: checkout.id, result, success: isAllpagoSuccess(result.code) });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/payment/:paymentId/boleto.pdf",
    auth: "user",
    summary: "The boleto of the user's own boleto payment as a PDF (typed line, ITF barcode, payer, due date; test mode in the sandbox).",
    async handler({ scope, params }) {
      const payment = await ownPayment(scope, params.paymentId);
      if (!payment) return fail("not-found");
      const pdf = await boletoPdf(scope.app, payment);
      if (!pdf.ok) return pdf;
      return new Response(new Uint8Array(pdf.value), {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `inline; filename="boleto-${payment.providerRef ?? payment.id}.pdf"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  }),
];
