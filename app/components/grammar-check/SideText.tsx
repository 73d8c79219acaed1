// The list page's side text (spec 3 §2): about the grammar check, and about how it works — on our own servers,
// offline, nothing leaving the portal (issue 23: no third-party checking service) — and what it cannot do.
import { useTranslation } from "#app/lib/translate";

export function SideText() {
  const { t } = useTranslation("grammar");
  return (
    <aside className="gc-side stack" aria-label={t("side.aboutHeading")}>
      <section className="card">
        <h2>{t("side.aboutHeading")}</h2>
        <p>{t("side.about")}</p>
      </section>
      <section className="card">
        <h2>{t("side.howHeading")}</h2>
        <p>{t("side.how")}</p>
      </section>
      <section className="card">
        <h2>{t("side.limitsHeading")}</h2>
        <p>{t("side.limits")}</p>
      </section>
    </aside>
  );
}
