import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime } from "#common/format";
import { paths } from "#common/paths";
import type { DigitalEditView } from "#server/digital/types";
import { getDigitalEdit } from "#server/digital";
import { digitalPage } from "#app/components/digital/access.server";
import { ConfirmDelete } from "#app/components/digital/ConfirmDelete";
import { RefreshWhile } from "#app/components/digital/polling";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/researcher/digital-editing/details/{identity} (spec 3 §2): download the tracked changes and the clean
// version, delete, next steps ('send to professional editing'). Unknown, archived or another's → the list.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const r = await getDigitalEdit(scope, params.identity ?? "");
  if (!r.ok) throw redirect(paths.digitalEditing(scope.lang));
  const t = await getFixedT(request, "digital");
  return Response.json(
    { title: `${t("details.heading")}: ${r.value.fileName}`, edit: r.value },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function DigitalEditDetails() {
  const { edit } = useLoaderData() as { edit: DigitalEditView };
  const { t } = useTranslation("digital");
  const lang = useLang();
  const style = edit.styleOfEnglish === "British English" ? "british" : "american";
  return (
    <div className="gc-page digital-page">
      <RefreshWhile active={edit.status === "processing"} />
      <p>
        <a href={paths.digitalEditing(lang)}>‹ {t("details.back")}</a>
      </p>
      <div className="gc-heading">
        <h1>{edit.fileName}</h1>
        <span className="badge badge-brand">{t("editing.badge")}</span>
      </div>
      <p className="digital-disclaimer">{t("editing.disclaimer")}</p>
      <section className={`card stack digital-details digital-${edit.status}`}>
        <dl className="facts">
          <dt>{t("details.uploaded")}</dt>
          <dd>{formatDateTime(edit.createdAt, lang)}</dd>
          <dt>{t("details.style")}</dt>
          <dd>{t(`style.${style}`)}</dd>
          <dt>{t("details.status")}</dt>
          <dd>{t(`status.${edit.status}`)}</dd>
          {edit.words !== null ? (
            <>
              <dt>{t("details.words")}</dt>
              <dd>{edit.words}</dd>
            </>
          ) : null}
          {edit.changes !== null ? (
            <>
              <dt>{t("details.changes")}</dt>
              <dd>{edit.changes}</dd>
            </>
          ) : null}
        </dl>
        {edit.status === "failed" ? (
          <p className="alert alert-danger" role="alert">
            {t("errors.automated-edit-failure")}
          </p>
        ) : null}
        {edit.status === "processing" ? (
          <p className="digital-status digital-status-processing" role="status">
            <span className="spinner" aria-hidden="true" /> {t("status.processing")}
          </p>
        ) : null}
        <div className="button-row">
          {edit.status === "completed" ? (
            <>
              <a className="button button-primary" href={paths.api.digitalEditDownload(edit.identity)} download>
                {t("details.downloadTracked")}
              </a>
              <a className="button" href={paths.api.digitalEditLewisVersion(edit.identity)} download>
                {t("details.downloadClean")}
              </a>
            </>
          ) : null}
          {edit.status !== "processing" ? (
            <ConfirmDelete href={paths.digitalEditingDelete(lang, edit.identity)} fileName={edit.fileName} />
          ) : null}
        </div>
      </section>
      {edit.status === "completed" ? (
        <section className="card stack digital-next">
          <h2>{t("details.nextHeading")}</h2>
          <p>{t("details.nextBody")}</p>
          <p>
            <a className="button" href={paths.api.orderFormFromDigitalEdit(edit.identity)}>
              {t("details.sendToEditing")}
            </a>
          </p>
        </section>
      ) : null}
    </div>
  );
}
