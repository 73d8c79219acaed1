// Vouchers over the API (spec 2 §7 "Voucher verification", "PUT /api/order-form/{id}/voucher/{code}"; issue 12
// §7). The order form calls answer like the discount-code calls (./api.ts): the form with its price and a
// message; a refused code answers `{ error, message }` with the text translated, shown as returned. The order
// form's table (it was server/vouchers/api.ts): every call is the payment step's, and vouchers load no order
// form (ADR 059).
import { errorStatus, ok, type Err, type Result } from "#common/result";
import { endpoint, reply, type ApiReply, type EndpointTable } from "../http/api/endpoint";
import type { Scope } from "../scope";
import { isVoucherError, verifyVoucher, voucherErrorText } from "../vouchers";
import type { OrderFormRow } from "./store";
import { orderFormView } from "./view";
import { applyVoucher, removeVoucher } from "./voucher";

/**
 * A refusal: a voucher error carries its translated text (spec 2 §8 "Voucher error: shown as returned"); too
 * many unknown codes is a 429 with Retry-After.
 */
function refused(scope: Scope, r: Err): ApiReply {
  const { error } = r;
  const body = { error, fieldErrors: {}, ...(isVoucherError(error) ? { message: voucherErrorText(scope.lang, error) } : {}) };
  const retry = r.details?.retryAfterSeconds;
  if (retry !== undefined)
    return reply({ ...body, retryAfterSeconds: retry }, { status: errorStatus(error), headers: { "Retry-After": String(retry) } });
  return reply(body, { status: errorStatus(error) });
}

async function withForm(scope: Scope, r: Result<OrderFormRow>, message: string): Promise<ApiReply | Result<unknown>> {
  if (!r.ok) return refused(scope, r);
  return ok({ orderForm: await orderFormView(scope, r.value), voucherCode: r.value.voucher_code, messages: [message] });
}

export const vouchersApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/voucher/:code",
    auth: "user",
    summary: "Verifies a voucher code (trimmed, any case): { voucher } or { error, message } (voucher-not-found 404, others 400).",
    async handler({ scope, params }) {
      const r = await verifyVoucher(scope, params.code);
      return r.ok ? ok({ voucher: r.value.voucher }) : refused(scope, r);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/api/order-form/:id/voucher/:code",
    auth: "user",
    summary: "Applies a voucher to the user's draft order form (empty body): the form and its price, message voucher-applied-message.",
    async handler({ scope, params }) {
      const r = await applyVoucher(scope, params.id, params.code);
      return withForm(scope, r.ok ? ok(r.value.form) : r, "voucher-applied-message");
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/api/order-form/:id/voucher",
    auth: "user",
    summary: "Removes the voucher from the user's draft order form: the form and its price, message voucher-removed-message.",
    async handler({ scope, params }) {
      return withForm(scope, await removeVoucher(scope, params.id), "voucher-removed-message");
    },
  }),
];
