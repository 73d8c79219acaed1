import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { wizardScope, requireDraft } from "#app/lib/wizard.server";
import { safeRedirect } from "#app/lib/session.server";
import { parseForm } from "#app/lib/forms.server";
import { visitorCurrencyForm, type VisitorCurrency } from "#common/order-form/schemas";
import { chooseVisitorCurrency } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the summary's currency picker (anonymous visitors, not on the China site).
export async function action({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const submission = await parseForm<VisitorCurrency>(request, visitorCurrencyForm);
  const { currencyIso, redirect: back } = submission.status === "success" ? submission.value : {};
  await chooseVisitorCurrency(w.scope, form, currencyIso ?? "");
  return redirect(safeRedirect(back ?? "", paths.submit(w.lang, "resume")), { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
