import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { wizardScope, requireDraft } from "#app/lib/wizard.server";
import { safeRedirect } from "#app/lib/session.server";
import { readFormData } from "#app/lib/forms.server";
import { chooseVisitorCurrency } from "#server/order-form";
import { paths } from "#common/paths";

// POST from the summary's currency picker (anonymous visitors, not on the China site).
export async function action({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const data = await readFormData(request);
  await chooseVisitorCurrency(w.scope, form, String(data.get("currencyIso") ?? ""));
  return redirect(safeRedirect(String(data.get("redirect") ?? ""), paths.submit(w.lang, "resume")), { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
