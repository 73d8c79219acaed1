import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireLang } from "#app/lib/session.server";
import { paths } from "#common/paths";

// With the flag on, /curie/* goes to the same path with rubriq in its place (spec 1 §2, spec 3 §2).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = requireLang(request);
  const url = new URL(request.url);
  if (!(await context.app.config.flag("curie_to_rubriq_redirect"))) throw new Response("Not Found", { status: 404 });
  return redirect(url.pathname.replace(/^\/[^/]+\/curie/, paths.rubriq(lang)) + url.search);
}
