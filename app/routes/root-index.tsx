import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { langForRequest } from "#app/i18n.server";
import { paths } from "#common/paths";

// "/" is normally redirected by the HTTP layer; this keeps the rule when Remix is reached directly.
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return redirect(paths.home(langForRequest(request)) + url.search);
}
