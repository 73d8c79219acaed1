import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/session.server";

// /researcher/aje-plus redirects to /researcher/rewards (spec 3 §2).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const url = new URL(request.url);
  return redirect(url.pathname.replace(/\/aje-plus$/, "/rewards") + url.search);
}
