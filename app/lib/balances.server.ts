// The payment pages' side of the balance panel (issue 13, ADR 041): "Update total" answers with the form
// re-computed for the chosen balances (200, no payment made); a refused choice or a total that changed since
// the page showed it answers 400 with the form again. Every answer of the pay pages carries the form data
// computed for the posted choice, so the methods shown follow what is left to pay.
import type { FieldErrors } from "#common/result";
import { BALANCES_INTENT } from "#common/payments/balances";
import type { PaymentFields, PaymentFormData, PaymentReply } from "#common/payments/schemas";
import { SHOWN_PAYABLE } from "#app/components/payment/BalancePanel";

export type BalanceActionData = { reply: PaymentReply; payment: PaymentFormData };

/** An answer before any payment is attempted, or null to go on and pay. */
export function balancesAnswer(fields: PaymentFields, data: PaymentFormData, errors: FieldErrors | null): Response | null {
  const reply = (fieldErrors: FieldErrors, error: string | null): PaymentReply => ({
    fieldErrors,
    values: { ...fields },
    error,
    errorDetail: null,
  });
  if (errors) return Response.json({ reply: reply(errors, null), payment: data } satisfies BalanceActionData, { status: 400 });
  if (fields.intent === BALANCES_INTENT) return Response.json({ reply: reply({}, null), payment: data } satisfies BalanceActionData);
  // The researcher changed the options without updating: show the new total instead of charging it unseen.
  const shown = fields[SHOWN_PAYABLE];
  if (data.balances && shown !== undefined && shown !== String(data.balances.payable))
    return Response.json({ reply: reply({}, "balances-changed"), payment: data } satisfies BalanceActionData, { status: 400 });
  return null;
}

/** A refusal (400 JSON) of the payment pages, with the form data of the posted choice added. */
export async function withPaymentForm(response: Response, data: PaymentFormData): Promise<Response> {
  if (response.status !== 400 || !response.headers.get("Content-Type")?.includes("json")) return response;
  const body = (await response.json()) as Record<string, unknown>;
  return Response.json({ ...body, payment: data }, { status: 400, headers: response.headers });
}
