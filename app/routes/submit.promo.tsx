import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { parseStep, readStepForm, requireDraft, wizardScope, stepAction } from "#app/lib/wizard.server";
import { promoForm } from "#common/order-form/schemas";
import { safeRedirect } from "#app/lib/session.server";
import { applyPromoCode, removePromoCode } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the "My Order" panel: apply (one per order) or remove a promo code; the result shows as a message.
async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  const { intent, code, redirect: from } = parseStep(fields, promoForm);
  const back = safeRedirect(from, paths.submit(w.lang, "resume")).split("?")[0];
  if (intent === "remove") {
    await removePromoCode(w.scope, form);
    return redirect(`${back}?promo=coupon-removed-message`, { status: 303 });
  }
  const r = await applyPromoCode(w.scope, form, code ?? "");
  return redirect(`${back}?promo=${r.ok ? r.value.message : r.error}`, { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
