import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { wizardScope, requireDraft } from "#app/lib/wizard.server";
import { safeRedirect } from "#app/lib/session.server";
import { saveOrderForm } from "#server/order-form";
import { listCurrencies } from "#server/accounts/registration";
import { paths } from "#common/paths";

// POST from the summary's currency picker (anonymous visitors, not on the China site).
export async function action({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const data = await request.formData();
  const iso = String(data.get("currencyIso") ?? "");
  const allowed = (await listCurrencies(context.app.db)).filter((c) => c.selectable).map((c) => c.isoCode);
  if (!w.scope.userId && w.scope.localization !== "CN" && allowed.includes(iso))
    await saveOrderForm(context.app.db, form, { currency_iso: iso });
  return redirect(safeRedirect(String(data.get("redirect") ?? ""), paths.submit(w.lang, "resume")), { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
