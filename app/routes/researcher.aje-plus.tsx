import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireLang, requireUser } from "#app/lib/session.server";
import { paths } from "#common/paths";

// /researcher/aje-plus redirects to /researcher/rewards (spec 3 §2), keeping the query.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return redirect(paths.rewards(requireLang(request)) + new URL(request.url).search);
}
