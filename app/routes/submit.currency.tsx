import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { wizardScope, requireDraft, stepAction } from "#app/lib/wizard.server";
import { safeRedirect } from "#app/lib/session.server";
import { parseForm } from "#app/lib/forms.server";
import { visitorCurrencyForm, type VisitorCurrency } from "#common/order-form/schemas";
import { chooseVisitorCurrency } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the summary's currency picker (anonymous visitors, not on the China site).
async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const submission = await parseForm<VisitorCurrency>(request, visitorCurrencyForm);
  const { currencyIso, redirect: back } = submission.status === "success" ? submission.value : {};
  const r = await chooseVisitorCurrency(w.scope, form, currencyIso ?? "");
  const to = safeRedirect(back ?? "", paths.submit(w.lang, "resume"));
  // A failed save comes back to the page with ?currency=error: the layout shows 'generic-touchup-error'.
  return redirect(r.ok ? to : withQuery(to, { currency: "error" }), { status: 303 });
}

/** `to` (a same-site path, maybe with a query) with `params` set in its query. */
function withQuery(to: string, params: Record<string, string>): string {
  const url = new URL(to, "http://x");
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${url.hash}`;
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
