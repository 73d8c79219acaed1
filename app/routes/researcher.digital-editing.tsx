import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import type { DigitalEditLoad, DigitalEditView, Pagination } from "#server/digital/types";
import { multipartBody } from "#server/http/multipart";
import { createDigitalEdit, loadDigitalEdit, searchDigitalEdits } from "#server/digital";
import { digitalPage, noticeName, pageErrors, pageParam, statusParam, type PageError } from "#app/components/digital/access.server";
import { DigitalEditRows, ListPages } from "#app/components/digital/DigitalRows";
import { RefreshWhile } from "#app/components/digital/polling";
import { EditUploadForm } from "#app/components/digital/UploadForms";
import { EditingSidePanel } from "#app/components/digital/SidePanel";
import { Notice } from "#app/components/digital/Notice";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/researcher/digital-editing/{status?} (spec 3 §2, §4; ADR 074): the 'Automated proofreading' badge, the
// upload form (or the subscribe notice), the researcher's digital edits 30 a page (?page=N; {status} filters the
// page to processing / completed / failed), and the side panel (Word add-in, survey, subscribe card).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const status = statusParam(params.status);
  if (status === "invalid") throw redirect(paths.digitalEditing(scope.lang));
  const q = new URL(request.url).searchParams;
  const page = pageParam(q.get("page"));
  const [load, list] = await Promise.all([loadDigitalEdit(scope), searchDigitalEdits(scope, { page, status: status ?? undefined })]);
  if (!load.ok || !list.ok) throw new Response("Bad Request", { status: 400 });
  if (list.value.pagination.pages >= 1 && page > list.value.pagination.pages)
    throw redirect(paths.digitalEditing(scope.lang, status ?? undefined, { page: list.value.pagination.pages }));
  const t = await getFixedT(request, "digital");
  return Response.json(
    {
      title: t("editing.title"),
      load: load.value,
      results: list.value.results,
      pagination: list.value.pagination,
      status,
      deleted: noticeName(q.get("deleted")),
      notice: q.get("notice") === "subscribed" ? "subscribed" : q.get("survey") === "thanks" ? "survey" : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const r = await createDigitalEdit(scope, multipartBody(request));
  if (r.ok) throw redirect(paths.digitalEditing(scope.lang), { status: 303 });
  return Response.json({ errors: pageErrors(r) }, { status: errorStatus(r.error) });
}

interface LoaderData {
  load: DigitalEditLoad;
  results: DigitalEditView[];
  pagination: Pagination;
  status: string | null;
  deleted: string | null;
  notice: "subscribed" | "survey" | null;
}

export default function DigitalEditingPage() {
  const data = useLoaderData() as LoaderData;
  const reply = useActionData() as { errors: { fields: Record<string, string>; form: PageError | null } } | undefined;
  const { t } = useTranslation("digital");
  const lang = useLang();
  const processing = data.results.some((r) => r.status === "processing");
  const badge = data.load.hasDigitalEditingPurchase
    ? t("editing.badgeSubscribed")
    : data.load.digitalEditingTrial
      ? t("editing.badgeTrial")
      : null;
  return (
    <div className="gc-page digital-page">
      <RefreshWhile active={processing} />
      <div className="gc-heading">
        <h1>{t("editing.title")}</h1>
        <span className="badge badge-brand">{t("editing.badge")}</span>
        {badge ? <span className="badge digital-badge-state">{badge}</span> : null}
      </div>
      {data.deleted ? <Notice text={t("list.deleted", { fileName: data.deleted })} /> : null}
      {data.notice === "subscribed" ? <Notice text={t("subscribe.active")} /> : null}
      {data.notice === "survey" ? <Notice text={t("survey.thanks")} /> : null}
      <div className="gc-layout">
        <div className="gc-main stack">
          <p className="digital-disclaimer">{t("editing.disclaimer")}</p>
          {data.load.canUpload ? (
            <EditUploadForm errors={reply?.errors ?? { fields: {}, form: null }} />
          ) : (
            <section className="card stack digital-subscribe-notice">
              <h2>{t("editing.subscribeHeading")}</h2>
              <p>{t("editing.subscribeBody")}</p>
              <p>
                <a className="button button-primary" href={paths.digitalEditingSubscribe(lang)}>
                  {t("editing.subscribeButton")}
                </a>
              </p>
            </section>
          )}
          <section className="stack" aria-labelledby="digital-list-heading">
            <h2 id="digital-list-heading">{t("editing.listHeading")}</h2>
            <StatusFilter status={data.status} />
            {processing ? <p className="field-hint">{t("list.processingHint")}</p> : null}
            {data.results.length ? <DigitalEditRows rows={data.results} /> : <p className="field-hint">{t("list.empty")}</p>}
            <ListPages
              page={data.pagination.page}
              pages={data.pagination.pages}
              href={(page) => paths.digitalEditing(lang, data.status ?? undefined, { page })}
            />
          </section>
        </div>
        <EditingSidePanel load={data.load} />
      </div>
    </div>
  );
}

function StatusFilter({ status }: { status: string | null }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  const items: [string | null, string][] = [
    [null, t("filter.all")],
    ["processing", t("status.processing")],
    ["completed", t("status.completed")],
    ["failed", t("status.failed")],
  ];
  return (
    <nav className="digital-filter" aria-label={t("filter.label")}>
      {items.map(([value, label]) =>
        value === status ? (
          <span key={label} aria-current="page">
            {label}
          </span>
        ) : (
          <a key={label} href={paths.digitalEditing(lang, value ?? undefined)}>
            {label}
          </a>
        ),
      )}
    </nav>
  );
}
