// The order form's payment over the JSON API (spec 2 §7, issue 12 §1): loading the payment form (for an order
// form, unpaid invoices or neither) and paying an order form (POST|PUT /api/order-form/{id}/payments), which
// places the order. Orders' since ADR 056 (payments never imports orders); the same parse (the form's schema, ADR 060)
// and orchestration (pay.ts) as the wizard's page.
import * as z from "zod/mini";
import { fail, invalid, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import { paymentBody, type PaymentBody } from "#common/payments/schemas";
import { parseBalanceChoice, parsePaymentForm } from "#common/payments/form-schema";
import { endpoint, reply, type ApiReply, type EndpointTable, type HandlerInput } from "../http/api/endpoint";
import type { Scope } from "../scope";
import { findOrderForm, ownerOf } from "../order-form";
import {
  answer,
  countriesWithStates,
  derivedIdempotencyKey,
  headerKey,
  invoiceNumbersOf,
  loadPayoff,
  paymentCurrencies,
  savedAddresses,
} from "../payments";
import { orderPaymentForm, payOrderForm } from "./pay";

/** The order placed from a form (the answer old clients read: `order` and `redirectUri`). */
async function placedOrder(scope: Scope, formId: string, alreadyPlaced: boolean) {
  const row = await scope.app.db
    .selectFrom("orders as o")
    .leftJoin("invoices as i", "i.order_id", "o.id")
    .select(["o.external_id", "o.total", "o.currency_iso", "i.number"])
    .where("o.order_form_id", "=", formId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    order: {
      externalId: row.external_id,
      invoiceNumber: row.number,
      total: Number(row.total),
      currencyIso: row.currency_iso,
      alreadyPlaced,
    },
    redirectUri: paths.orderThankYou(scope.lang, row.external_id),
  };
}

const loadQuery = z.object({ orderFormId: z.optional(z.string()), invoiceNumbers: z.optional(z.string()) });

async function payOrder({ scope, params, body, ...input }: HandlerInput<PaymentBody, undefined>): Promise<Result<unknown> | ApiReply> {
  const form = await findOrderForm(scope.app.db, params.id, ownerOf(scope));
  if (!form) return fail("not-found");
  // Paying a placed form again answers its order (issue 10 §13).
  if (form.status !== "draft") {
    const order = await placedOrder(scope, form.id, true);
    return order ? reply(order) : fail("order-form-placed");
  }
  const key = headerKey({ scope, params, body, ...input });
  if (key === null) return fail("idempotency-key-invalid");
  // The methods follow what is left after the balances the body spends (issue 13): that choice is read first.
  const choice = parseBalanceChoice(body.fields);
  if (!choice.ok) return choice;
  const { data, balanceErrors } = await orderPaymentForm(scope, form, choice.value);
  if (balanceErrors) return invalid(balanceErrors);
  const submission = parsePaymentForm(body.fields, data);
  if (!submission.ok) return submission;
  // Clients of the order API before issue 12 send no key: one is derived from the form and the body.
  const r = await payOrderForm(scope, form, submission.value, key ?? derivedIdempotencyKey(`order-form:${form.id}:api`, body.fields));
  return answer(r, () => placedOrder(scope, form.id, false));
}

export const orderPaymentApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/payment/load",
    auth: "user",
    query: loadQuery,
    summary: "The payment form's data: methods (with their test-mode flag), saved addresses, countries with states, currencies.",
    async handler({ scope, query }) {
      if (query.invoiceNumbers) {
        const payoff = await loadPayoff(scope, invoiceNumbersOf(query.invoiceNumbers));
        return payoff.ok ? ok({ ...payoff.value.data, invoices: payoff.value.invoices }) : payoff;
      }
      // Nothing named: the reference data of any payment form (spec 2 §7 "GET /api/payment/load", no payload).
      if (!query.orderFormId) {
        const [countries, currencies, userAddresses] = await Promise.all([
          countriesWithStates(scope.app.db, scope.lang),
          paymentCurrencies(scope.app.db, scope.lang),
          savedAddresses(scope),
        ]);
        return ok({ countries, currencies, userAddresses });
      }
      const form = await findOrderForm(scope.app.db, query.orderFormId, ownerOf(scope));
      if (!form) return fail("not-found");
      return ok((await orderPaymentForm(scope, form)).data);
    },
  }),
  ...(["POST", "PUT"] as const).map((method) =>
    endpoint({
      method,
      path: "/api/order-form/:id/payments",
      auth: "optional",
      body: paymentBody,
      summary: "Pays the order form (201 with the placed order); paying a placed form again answers the same order (200).",
      handler: payOrder,
    }),
  ),
];
