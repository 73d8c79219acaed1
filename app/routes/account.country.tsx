import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireLang, requireUser, safeRedirect } from "#app/lib/session.server";
import { setCountry } from "#server/accounts/account";

// POST /{lang}/account/country: the answer of the country prompt.
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const lang = requireLang(request);
  const form = await request.formData();
  const ok = await setCountry(context.app, session.user.id, String(form.get("country") ?? ""));
  const back = safeRedirect(String(form.get("redirect") ?? ""), `/${lang}/researcher`);
  return redirect(ok ? back : `${back}${back.includes("?") ? "&" : "?"}countryError=1`, { status: 303 });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
