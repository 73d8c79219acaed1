// The payment part of the subscribe and purchase pages: the shared PaymentForm (its methods come from the server:
// digital purchases exclude bank transfer, boleto, credits and vouchers), or the provider's form to post.
import type { PaymentFormData, PaymentReply } from "#common/payments/fields";
import type { PaymentActionData } from "#app/lib/payment.server";
import { PaymentForm } from "#app/components/payment/PaymentForm";
import { RedirectForm } from "#app/components/payment/RedirectForm";

export function Checkout({
  data,
  actionData,
  submitLabel,
  hidden,
}: {
  data: PaymentFormData;
  actionData: PaymentActionData | undefined;
  submitLabel: string;
  hidden?: Record<string, string>;
}) {
  if (actionData && "redirectForm" in actionData) return <RedirectForm form={actionData.redirectForm} />;
  const reply: PaymentReply | null = actionData && "reply" in actionData ? actionData.reply : null;
  return <PaymentForm key={data.idempotencyKey} data={data} reply={reply} submitLabel={submitLabel} hidden={hidden} />;
}
