// Next steps after scoring (spec 3 §2): poor or average recommends editing — overview, the price (75 in the user's
// currency, formatted by #common/money), 'Get Started' (a plain link to the API that starts an order form with this
// document), 'Meet one of our editors', the discount notice for visitors; exceptional recommends the non-editing
// services (figures, grant, videos) and an illustrator. Both end with three free resources: two short guides that
// open in place (<details>, no page to go missing) and the certificate check, a page of the portal.
import { recommendsEditing, type ScoreCategory } from "#common/grammar-check/constants";
import { paths } from "#common/paths";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";

export function NextSteps({
  identity,
  category,
  price,
  anonymous,
}: {
  identity: string;
  category: ScoreCategory;
  price: string;
  anonymous: boolean;
}) {
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const editing = recommendsEditing(category);
  const list = (key: string) => {
    const value = t(key, { returnObjects: true }) as unknown;
    return Array.isArray(value) ? (value as string[]) : [];
  };
  return (
    <section className="gc-next stack" aria-labelledby="gc-next-heading">
      <h2 id="gc-next-heading">{t("next.heading")}</h2>
      {editing ? (
        <div className="gc-next-grid">
          <div className="card stack gc-offer">
            <h3>{t("next.editingHeading")}</h3>
            <p>{t("next.editingBody")}</p>
            <ul className="gc-points">
              {list("next.editingPoints").map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <p className="gc-price">{t("next.price", { price })}</p>
            {anonymous ? <p className="alert alert-info">{t("next.discount")}</p> : null}
            <div className="actions">
              <a className="button button-primary" href={paths.api.orderFormFromLanguageAssessment(identity)}>
                {t("next.getStarted")}
              </a>
            </div>
          </div>
          <Person heading={t("next.editorHeading")} name={t("next.editorName")} role={t("next.editorRole")} bio={t("next.editorBio")} />
        </div>
      ) : (
        <div className="gc-next-grid">
          <div className="card stack gc-offer">
            <h3>{t("next.servicesHeading")}</h3>
            <p>{t("next.servicesBody")}</p>
            <ul className="gc-points">
              <li>{t("next.services.figures")}</li>
              <li>{t("next.services.grant")}</li>
              <li>{t("next.services.videos")}</li>
            </ul>
            <div className="actions">
              <a className="button" href={paths.submit(lang, "new")}>
                {t("next.servicesLink")}
              </a>
            </div>
          </div>
          <Person
            heading={t("next.illustratorHeading")}
            name={t("next.illustratorName")}
            role={t("next.illustratorRole")}
            bio={t("next.illustratorBio")}
          />
        </div>
      )}
      <section className="stack" aria-labelledby="gc-resources-heading">
        <h3 id="gc-resources-heading">{t("next.resourcesHeading")}</h3>
        <ul className="gc-resources">
          {(["articles", "agreement"] as const).map((key) => (
            <li key={key} className="card">
              <details>
                <summary>
                  <strong>{t(`next.resources.${key}.title`)}</strong>
                  <span className="field-hint">{t(`next.resources.${key}.body`)}</span>
                </summary>
                <ul>
                  {list(`next.resources.${key}.tips`).map((tip) => (
                    <li key={tip}>{tip}</li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
          <li className="card">
            <strong>{t("next.resources.certificate.title")}</strong>
            <span className="field-hint">{t("next.resources.certificate.body")}</span>
            <a href={paths.certificateVerify(lang)}>{t("next.resources.certificate.link")}</a>
          </li>
        </ul>
      </section>
    </section>
  );
}

function Person({ heading, name, role, bio }: { heading: string; name: string; role: string; bio: string }) {
  const initials =
    name
      .split(/\s+/)
      .filter((w) => /^\p{Lu}/u.test(w))
      .slice(-2)
      .map((w) => w[0])
      .join("") || name.slice(0, 1);
  return (
    <div className="card stack gc-person">
      <h3>{heading}</h3>
      <div className="gc-person-head">
        <span className="gc-avatar" aria-hidden="true">
          {initials}
        </span>
        <p>
          <strong>{name}</strong>
          <br />
          <span className="field-hint">{role}</span>
        </p>
      </div>
      <p>{bio}</p>
    </div>
  );
}
