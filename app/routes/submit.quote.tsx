import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireDraft, wizardScope } from "#app/lib/wizard.server";
import { generatePriceQuote } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the "My Order" panel: make a price quote of the order as it stands, then show it.
export async function action({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const r = await generatePriceQuote(w.scope, form);
  if (!r.ok) return redirect(paths.submit(w.lang, "price-quote-completed", { failed: 1 }), { status: 303 });
  return redirect(paths.submit(w.lang, "price-quote-completed", { estimate: r.value.estimateId }), { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
