// The prepay API (issue 13 §1, spec 2 §7): paying a prepayment (POST /api/prepay/payment, answered like
// /api/payoff/payment), the prepay page's data (GET /api/prepay/load) and a retainer invoice's PDF. Every call is
// the signed-in user's own: another user's retainer invoice is not found (404).
import { fail, ok } from "#common/result";
import { prepayPaymentBody } from "#common/prepay/schemas";
import { endpoint, reply, type EndpointTable, type HandlerInput } from "../http/api/endpoint";
import { idempotencyKeyOf } from "../payments/form";
import { loadPrepayData } from "./load";
import { submitPrepayment } from "./pay";
import { retainerInvoicePdf } from "./documents";

const headerKey = (input: HandlerInput<unknown, unknown>): string | null | undefined => {
  const value = input.req.headers["idempotency-key"];
  if (value === undefined) return undefined;
  return idempotencyKeyOf(Array.isArray(value) ? value[0] : value);
};

export const prepayApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/prepay/load",
    auth: "user",
    summary: "The user's prepayments (retainer invoices) and credits with a positive balance, the total credit balance, the currency.",
    async handler({ scope }) {
      const d = await loadPrepayData(scope);
      if (!d) return fail("unauthorized");
      return ok({
        enabled: d.enabled,
        hideInvoices: d.account.hideInvoices,
        currency: d.account.currency,
        currencyChosen: d.account.currencyChosen,
        minimumAmount: d.minimum,
        totalBalance: d.totalBalance,
        prepayments: d.prepayments,
        credits: d.credits,
      });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/prepay/payment",
    auth: "user",
    body: prepayPaymentBody,
    summary:
      "Pays a prepayment: the payment form's body with `amount` (a new one, major units of the user's currency) or `retainerInvoiceNumber`; needs an Idempotency-Key header.",
    async handler(input) {
      const { scope, body } = input;
      const key = headerKey(input);
      if (!key) return fail(key === undefined ? "idempotency-key-required" : "idempotency-key-invalid");
      const target = body.retainerInvoiceNumber
        ? { retainerInvoiceNumber: body.retainerInvoiceNumber }
        : body.amount
          ? { amount: body.amount }
          : null;
      if (!target) return { ok: false as const, error: "amount-invalid", fieldErrors: { amount: "prepay:errors.amount-invalid" } };
      const r = await submitPrepayment(scope, target, body.fields, key);
      return r.ok ? reply({ payment: r.value }) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/retainer-invoice/:number/pdf",
    auth: "user",
    summary: "The retainer invoice (prepayment) as a PDF in its language; the owner's only.",
    async handler({ scope, params }) {
      const r = await retainerInvoicePdf(scope, params.number);
      if (!r.ok) return r;
      return new Response(new Uint8Array(r.value), {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `inline; filename="${params.number}.pdf"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  }),
];
