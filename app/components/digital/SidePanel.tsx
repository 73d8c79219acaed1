// The digital editing side panel (spec 3 §2, §3): the Word add-in download (our own manifest, ADR 074), the survey
// (our own form, no external script) and the subscribe card by display type: subscription-type (the active
// subscription and its end), preferred-group-type (access through the researcher's group), none (the offer).
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import type { DigitalEditLoad } from "#server/digital/types";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { PurchaseList } from "./PurchaseList";
import { SurveyDrawer } from "./SurveyDrawer";

export function EditingSidePanel({ load }: { load: DigitalEditLoad }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  return (
    <aside className="gc-side stack digital-side">
      <section className="card stack">
        <h2>{t("side.addInHeading")}</h2>
        <p>{t("side.addInBody")}</p>
        <p>
          <a className="button button-small" href={paths.digitalEditingAddInManifest(lang)} download="digital-editing-add-in.xml">
            {t("side.addInDownload")}
          </a>
        </p>
        <p className="field-hint">
          {t("side.addInHint")} <a href={paths.digitalEditingAddIn(lang)}>{t("side.addInOpen")}</a>
        </p>
      </section>
      <SurveyDrawer />
      <SubscribeCard load={load} />
      <PurchaseList purchases={load.digitalPurchases} />
    </aside>
  );
}

function SubscribeCard({ load }: { load: DigitalEditLoad }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  if (load.displayType === "subscription-type" && load.digitalEditingPurchase)
    return (
      <section className="card stack digital-card-active">
        <h2>{t("side.subscriptionHeading")}</h2>
        <p>{t("side.subscriptionUntil", { date: formatDate(load.digitalEditingPurchase.endsAt, lang) })}</p>
      </section>
    );
  if (load.displayType === "preferred-group-type")
    return (
      <section className="card stack digital-card-active">
        <h2>{t("side.groupHeading")}</h2>
        <p>{t("side.groupBody")}</p>
      </section>
    );
  // Without a subscription or the trial the main column already offers it (the subscribe notice): once is enough.
  if (load.hasDigitalEditingPurchase || !load.canUpload) return null;
  return (
    <section className="card stack digital-card-offer">
      <h2>{t("side.subscribeHeading")}</h2>
      <p>{t("side.subscribeBody")}</p>
      <p>
        <a className="button button-primary button-small" href={paths.digitalEditingSubscribe(lang)}>
          {t("editing.subscribeButton")}
        </a>
      </p>
    </section>
  );
}
