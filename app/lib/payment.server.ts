// The payment form's page side (issue 12 §1, ADR 035): read the posted fields flat, answer a refused or failed
// payment with the form's values and errors, and turn a PaymentAnswer into the next page (a 303 to
// redirectUrl, or the provider's form to post). Shared by the wizard's payment step and the pay-many page.
import { redirect, redirectDocument } from "@remix-run/node";
import type { Result } from "#common/result";
import type { PaymentAnswer } from "#common/payments/types";
import { PAYMENT_FIELD, type PaymentFields, type PaymentReply } from "#common/payments/schemas";
import { randomUUID } from "node:crypto";
import { derivedIdempotencyKey, idempotencyKeyOf } from "#server/payments/form";
import { refuseUnstorableFields } from "./forms.server";

/** The posted text fields by name (the last value of a repeated one). */
export function paymentFields(fields: URLSearchParams | FormData): PaymentFields {
  refuseUnstorableFields(fields);
  const flat: PaymentFields = {};
  for (const [name, value] of fields.entries()) if (typeof value === "string") flat[name] = value;
  return flat;
}

/**
 * The page's idempotency key; a post without one (an older page, a script) gets one made of what it paid for
 * and what it posted, so a resent identical post is still one payment.
 */
export function pageIdempotencyKey(fields: PaymentFields, scopeKey: string): string {
  return idempotencyKeyOf(fields[PAYMENT_FIELD.idempotencyKey]) ?? derivedIdempotencyKey(scopeKey, fields);
}

export type PaymentActionData = { reply: PaymentReply } | { redirectForm: NonNullable<PaymentAnswer["redirectForm"]> };

/**
 * A 400 with the form again and its values. A refusal of the input keeps the page's idempotency key (nothing
 * was stored under it); once the service was reached, the page takes a fresh key from its loader, so that a
 * retry after a decline is a new attempt and not the replay of the decline.
 */
export function refusedPayment(
  fields: PaymentFields,
  fieldErrors: Record<string, string>,
  error: string | null,
  options: { detail?: string | null; serviceReached?: boolean } = {},
) {
  // No method chosen: said beside the method buttons.
  if (error === "payment-method-required") {
    fieldErrors = { [PAYMENT_FIELD.method]: `payment:errors.${error}`, ...fieldErrors };
    error = null;
  } else if (Object.keys(fieldErrors).length > 0) error = null;
  const values = { ...fields };
  // A fresh key in the reply itself: after a refused action the page's loader data are not reloaded.
  if (options.serviceReached) values[PAYMENT_FIELD.idempotencyKey] = randomUUID();
  const reply: PaymentReply = { fieldErrors, values, error, errorDetail: options.detail ?? null };
  return Response.json({ reply } satisfies PaymentActionData, { status: 400 });
}

/**
 * A 303 to where the payment goes next. A provider's page or our API's return endpoint is not a page of this app:
 * with JavaScript, Remix would fetch it as route data, so those are a document redirect (a full navigation).
 */
export function leaveTo(url: string, init: ResponseInit = {}) {
  const appPage = url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/api/");
  return appPage ? redirect(url, { status: 303, ...init }) : redirectDocument(url, { status: 303, ...init });
}

/** The service's answer as the next page: a 303, the provider's form, or the form again with the refusal. */
export async function paymentResponse(fields: PaymentFields, r: Result<PaymentAnswer>, fallbackUrl: () => Promise<string | null>) {
  const reached = { serviceReached: true };
  if (!r.ok) {
    // Another attempt is open (a boleto, a PayPal order, a QR code: ADR 051): the researcher is sent to it.
    if (r.error === "payment-pending" && typeof r.details?.url === "string") return leaveTo(r.details.url);
    // A decline: its reason in the page's language (payment:declines.*), never the provider's English text.
    if (r.error === "payment-declined")
      return refusedPayment(fields, {}, "payment-declined", { ...reached, detail: String(r.details?.reason ?? "") || "failed" });
    return refusedPayment(fields, r.fieldErrors, r.error, reached);
  }
  const answer = r.value;
  if (answer.status === "failed" || answer.error)
    return refusedPayment(fields, {}, "payment-declined", { ...reached, detail: answer.error || "failed" });
  if (answer.redirectUrl) return leaveTo(answer.redirectUrl);
  if (answer.redirectForm) return Response.json({ redirectForm: answer.redirectForm } satisfies PaymentActionData);
  const url = await fallbackUrl();
  return url ? redirect(url, { status: 303 }) : refusedPayment(fields, {}, "payment-failed", reached);
}
