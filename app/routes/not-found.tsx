import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { getFixedT } from "#app/i18n.server";

// Any path under a language prefix that matches no page. The thrown response carries the translated title
// for the error page's <title> (app/lib/meta.ts); the layout's ErrorBoundary renders the body.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request);
  throw json({ title: t("error.notFoundTitle") }, { status: 404 });
}

export default function NotFound() {
  return null;
}
