import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireLang } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";

export const meta = titleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request);
  return { title: t("terms.title") };
}

export default function Page() {
  const { t } = useTranslation();
  const paragraphs = t("terms.paragraphs", { returnObjects: true }) as string[];
  return (
    <article className="prose">
      <h1>{t("terms.title")}</h1>
      {paragraphs.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </article>
  );
}
