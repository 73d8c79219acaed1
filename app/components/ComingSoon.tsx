import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

/** An honest page for an area of the portal that is not built yet: no fake data, a way back. */
export function ComingSoon() {
  const { area } = useLoaderData<{ area: string }>();
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <section className="soon" aria-labelledby="soon-title">
      <h1 id="soon-title">{t(`soon.areas.${area}`)}</h1>
      <p>{t("soon.body")}</p>
      <p>
        <Link className="button" to={paths.home(lang)}>
          {t("soon.back")}
        </Link>
      </p>
    </section>
  );
}
