import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { pageScope } from "#app/lib/scope.server";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { paths } from "#common/paths";
import { stopImpersonation } from "#server/staff/impersonation";

// POST: ends "view as" and returns the staff member to the staff area on a fresh session.
export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  if (!scope.session) return redirect(paths.login(scope.lang), { status: 303 });
  const r = await stopImpersonation(scope);
  if (!r.ok) return redirect(paths.home(scope.lang), { status: 303 });
  return signedInRedirect(context, { token: r.value.token, lang: scope.lang, target: paths.staff(scope.lang) });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
