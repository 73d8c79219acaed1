import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser, safeRedirect } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { readFormData } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { hideCheckSpamMessage } from "#server/home";

// The spam banner's hide form (spec 3 §4, issue 25 item 7): POST → hidden for good → 303 back to `redirect`
// (a same-site path; the dashboard otherwise). Works without JavaScript. A GET goes to the dashboard.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  return redirect(paths.researcher(scope.lang), 303);
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const form = await readFormData(request);
  const r = await hideCheckSpamMessage(scope);
  if (!r.ok) throw new Response("Forbidden", { status: errorStatus(r.error) });
  const back = form.get("redirect");
  return redirect(safeRedirect(typeof back === "string" ? back : null, paths.researcher(scope.lang)), 303);
}
