import { Link, useLoaderData } from "@remix-run/react";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

export const meta = titleMeta;

const SERVICES = ["editing", "translation", "formatting", "figures"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const scope = await pageScope(request, context);
  // A signed-in user on the root goes to their home directory (spec 1 §2).
  if (scope.session) throw redirect(paths.researcher(scope.lang));
  const t = await getFixedT(request);
  return { title: t("landing.title") };
}

export default function Landing() {
  useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <>
      <section className="hero">
        <h1>{t("landing.heroTitle")}</h1>
        <p className="lead">{t("landing.heroBody")}</p>
        <p className="actions">
          <Link className="button button-primary" to={paths.submit(lang, "new")}>
            {t("landing.startOrder")}
          </Link>
          <Link className="button" to={paths.login(lang)}>
            {t("landing.signIn")}
          </Link>
        </p>
      </section>
      <section aria-labelledby="services-title">
        <h2 id="services-title">{t("landing.servicesTitle")}</h2>
        <ul className="cards">
          {SERVICES.map((s) => (
            <li key={s} className="card">
              <h3>{t(`landing.services.${s}.title`)}</h3>
              <p>{t(`landing.services.${s}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="pay-title">
        <h2 id="pay-title">{t("landing.payTitle")}</h2>
        <p>{t("landing.payBody")}</p>
      </section>
    </>
  );
}
