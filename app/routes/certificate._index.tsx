import { Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { paths } from "#common/paths";

export const handle = { i18n: ["certificate"] };
export const meta = titleMeta;

// /{lang}/certificate (spec 2 §2 "Certificates"): what an editing certificate is, and where to verify one.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getFixedT(request, "certificate");
  const { config } = await context.app.config.snapshot();
  return { title: t("index.title"), company: config.companyShortName };
}

export default function CertificateIndex() {
  const { company } = useLoaderData<typeof loader>();
  const { t } = useTranslation("certificate");
  const lang = useLang();
  return (
    <article className="stack narrow prose">
      <h1>{t("index.title")}</h1>
      <p className="lead">{t("index.lead", { company })}</p>
      <h2>{t("index.whatTitle")}</h2>
      <p>{t("index.what")}</p>
      <h2>{t("index.howTitle")}</h2>
      <p>{t("index.how")}</p>
      <h2>{t("index.getTitle")}</h2>
      <p>{t("index.get")}</p>
      <p>
        <Link className="button button-primary" to={paths.certificateVerify(lang)}>
          {t("index.verifyLink")}
        </Link>
      </p>
    </article>
  );
}
