import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireLang } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { ErrorPanel } from "#app/components/ErrorPanel";

export const meta = titleMeta;

// /{lang}/error: the generic error page other flows send visitors to.
export async function loader({ request }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request);
  return { title: t("error.genericTitle") };
}

export default function ErrorPage() {
  return <ErrorPanel status={500} />;
}
