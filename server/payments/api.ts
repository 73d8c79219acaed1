// The payment form's JSON API (spec 2 §7, issue 12 §1): the currencies and paying unpaid invoices
// (POST /api/payoff/payment). The same parse (the form's schema, ADR 060) and service as the pages. Loading the form
// and paying an order form are orders' (server/orders/pay-api.ts, ADR 056): they place an order.
import { fail, invalid, ok, type Result } from "#common/result";
import { paymentBody } from "#common/payments/schemas";
import { parseBalanceChoice, parsePaymentForm } from "#common/payments/form-schema";
import type { PaymentAnswer } from "#common/payments/types";
import { endpoint, reply, type ApiReply, type EndpointTable, type HandlerInput } from "../http/api/endpoint";
import { idempotencyKeyOf, loadPayoff, paymentCurrencies } from "./form";
import { payInvoices, replayedInvoicesPayment } from "./pay-invoices";

const IDEMPOTENCY_HEADER = "idempotency-key";

export const headerKey = (input: HandlerInput<unknown, unknown>): string | null | undefined => {
  const value = input.req.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  return idempotencyKeyOf(Array.isArray(value) ? value[0] : value);
};

/** The service's answer: a refusal as `{ error, fieldErrors }`, else the payment's answer (and the order placed). */
export async function answer(
  r: Result<PaymentAnswer>,
  placed?: () => Promise<{ order: unknown; redirectUri: string } | null>,
): Promise<Result<unknown> | ApiReply> {
  if (!r.ok) return r;
  const order = placed ? await placed() : null;
  return reply({ payment: r.value, ...(order ?? {}) }, { status: order ? 201 : 200 });
}

export const paymentsApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/payment/currencies",
    auth: "none",
    summary: "The currencies a payment may be made in (Chinese yuan is not selectable).",
    async handler({ scope }) {
      return ok({ currencies: await paymentCurrencies(scope.app.db, scope.lang) });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/payoff/payment",
    auth: "user",
    body: paymentBody,
    summary: "Pays the user's unpaid invoices (additionalData.payoffReceiptCodes or invoiceNumbers); needs an Idempotency-Key header.",
    async handler(input) {
      const { scope, body } = input;
      const key = headerKey(input);
      if (!key) return fail(key === undefined ? "idempotency-key-required" : "idempotency-key-invalid");
      const choice = parseBalanceChoice(body.fields);
      if (!choice.ok) return choice;
      const payoff = await loadPayoff(scope, body.invoiceNumbers, choice.value);
      if (!payoff.ok) {
        // Paid already, perhaps by this very request sent before: its first answer again (ADR 034).
        const replay = await replayedInvoicesPayment(scope, body.invoiceNumbers, key, body.fields);
        return replay ? answer(replay) : payoff;
      }
      if (payoff.value.balanceErrors) return invalid(payoff.value.balanceErrors);
      const submission = parsePaymentForm(body.fields, payoff.value.data);
      if (!submission.ok) return submission;
      return answer(await payInvoices(scope, body.invoiceNumbers, submission.value, key, body.fields));
    },
  }),
];
