import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { pageScope } from "#app/lib/scope.server";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { paths, safeRedirect } from "#common/paths";
import { readFormData } from "#app/lib/forms.server";
import { stopImpersonation } from "#server/staff/impersonation";

// POST: ends "view as" and returns the staff member to the staff area on a fresh session: the staff page `next`
// names (the order panel's "Record a payment": the staff order page, ADR 067), else the staff home.
export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  if (!scope.session) return redirect(paths.login(scope.lang), { status: 303 });
  const next = (await readFormData(request)).get("next");
  const staffHome = paths.staff(scope.lang);
  const asked = safeRedirect(typeof next === "string" ? next : null, staffHome);
  const target = asked.startsWith(`${staffHome}/`) ? asked : staffHome;
  const r = await stopImpersonation(scope);
  if (!r.ok) return redirect(paths.home(scope.lang), { status: 303 });
  return signedInRedirect(context, { token: r.value.token, lang: scope.lang, target });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
