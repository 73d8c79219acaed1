import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { parseStep, readStepForm, requireDraft, stepAction, wizardScope } from "#app/lib/wizard.server";
import { voucherForm, voucherOutcome } from "#common/vouchers/schemas";
import { applyVoucher, removeVoucher } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the payment step's voucher panel (issue 12 §7): apply or remove a voucher, then 303 back to the
// payment step with the outcome as `?voucher=<code>` (the promo code's pattern: a code from a closed list, the
// applied code itself read from the form, so a crafted link can show no text of its own).
async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  if (!w.scope.userId) throw redirect(paths.login(w.lang, { redirect: paths.submit(w.lang, "payment-details") }), { status: 303 });
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  const { intent, code } = parseStep(fields, voucherForm);
  const r = intent === "remove" ? await removeVoucher(w.scope, form.id) : await applyVoucher(w.scope, form.id, code ?? "");
  const outcome = r.ok ? (intent === "remove" ? "voucher-removed" : "voucher-applied") : voucherOutcome(r.error);
  return redirect(paths.submit(w.lang, "payment-details", outcome ? { voucher: outcome } : undefined), { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
