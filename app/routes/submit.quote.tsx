import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireDraft, wizardScope, stepAction } from "#app/lib/wizard.server";
import { generatePriceQuote } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the "My Order" panel: make a price quote of the order as it stands, then show it.
async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const r = await generatePriceQuote(w.scope, form);
  if (!r.ok) return redirect(paths.submit(w.lang, "price-quote-completed", { failed: 1 }), { status: 303 });
  return redirect(paths.submit(w.lang, "price-quote-completed", { estimate: r.value.estimateId }), { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
