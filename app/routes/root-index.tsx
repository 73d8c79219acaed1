import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { detectLang } from "#app/i18n.server";
import { paths } from "#common/paths";

// "/" is normally redirected by the HTTP layer; this keeps the rule when Remix is reached directly.
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return redirect(paths.home(await detectLang(request)) + url.search);
}
