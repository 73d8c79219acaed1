import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { DIGITAL_ERRORS, TRANSLATION_WORD_LIMIT } from "#common/digital/constants";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import type { DigitalOrderLoad, DigitalOrderView, Pagination } from "#server/digital/types";
import { multipartBody } from "#server/http/multipart";
import { createDigitalOrder, loadDigitalOrders, searchDigitalOrders } from "#server/digital";
import { digitalPage, noticeName, pageErrors, pageParam, statusParam, type PageError } from "#app/components/digital/access.server";
import { DigitalOrderRows, ListPages } from "#app/components/digital/DigitalRows";
import { RefreshWhile } from "#app/components/digital/polling";
import { TranslationUploadForm } from "#app/components/digital/UploadForms";
import { Notice } from "#app/components/digital/Notice";
import { PurchaseList } from "#app/components/digital/PurchaseList";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

const NOTICES = ["purchased", "trial"] as const;

// /{lang}/researcher/digital-translations/{status?} (spec 3 §2, §4; ADR 074): the header with the uses left (display
// types uses-type / previous-uploads-type / none), the upload form (one file and the source language), the
// word-count-exceeded warning, and the translations 30 a page. Machine translation, draft quality: said on the page
// and on every completed row; rows the sandbox engine translated carry a visible "test mode" label.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "translations");
  const status = statusParam(params.status);
  if (status === "invalid") throw redirect(paths.digitalTranslations(scope.lang));
  const q = new URL(request.url).searchParams;
  const page = pageParam(q.get("page"));
  const [load, list] = await Promise.all([
    loadDigitalOrders(scope),
    searchDigitalOrders(scope, { page, type: "translation", status: status ?? undefined }),
  ]);
  if (!load.ok || !list.ok) throw new Response("Bad Request", { status: 400 });
  if (list.value.pagination.pages >= 1 && page > list.value.pagination.pages)
    throw redirect(paths.digitalTranslations(scope.lang, status ?? undefined, { page: list.value.pagination.pages }));
  const t = await getFixedT(request, "digital");
  const notice = q.get("notice");
  return Response.json(
    {
      title: t("translations.title"),
      load: load.value,
      results: list.value.results,
      pagination: list.value.pagination,
      status,
      deleted: noticeName(q.get("deleted")),
      notice: (NOTICES as readonly string[]).includes(notice ?? "") ? notice : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { scope } = await digitalPage(request, context, "translations");
  const r = await createDigitalOrder(scope, multipartBody(request));
  // A document over the word limit: the state is kept (load: wordCountExceeded, fileIdentity) and the list warns.
  if (r.ok || r.error === DIGITAL_ERRORS.wordCountExceeded) throw redirect(paths.digitalTranslations(scope.lang), { status: 303 });
  return Response.json({ errors: pageErrors(r) }, { status: errorStatus(r.error) });
}

interface LoaderData {
  load: DigitalOrderLoad;
  results: DigitalOrderView[];
  pagination: Pagination;
  status: string | null;
  deleted: string | null;
  notice: (typeof NOTICES)[number] | null;
}

export default function DigitalTranslationsPage() {
  const data = useLoaderData() as LoaderData;
  const reply = useActionData() as { errors: { fields: Record<string, string>; form: PageError | null } } | undefined;
  const { t } = useTranslation("digital");
  const lang = useLang();
  const processing = data.results.some((r) => r.status === "processing");
  const uses = data.load.numberOfUsesAvailable;
  return (
    <div className="gc-page digital-page">
      <RefreshWhile active={processing} />
      <div className="gc-heading">
        <h1>{t("translations.title")}</h1>
        <span className="badge badge-brand">{t("translations.badge")}</span>
        {data.load.displayType === "uses-type" ? (
          <span className="badge digital-badge-state" data-uses={uses}>
            {t("translations.usesLeft", { count: uses })}
          </span>
        ) : null}
      </div>
      {data.deleted ? <Notice text={t("list.deleted", { fileName: data.deleted })} /> : null}
      {data.notice === "purchased" ? <Notice text={t("purchase.active")} /> : null}
      {data.notice === "trial" ? <Notice text={t(`errors.${DIGITAL_ERRORS.trialSuccess}`)} /> : null}
      {data.load.wordCountExceeded ? (
        <p className="alert alert-warning" role="alert" data-file={data.load.fileIdentity ?? undefined}>
          {t(`errors.${DIGITAL_ERRORS.wordCountExceeded}`, { limit: TRANSLATION_WORD_LIMIT.toLocaleString(lang) })}
        </p>
      ) : null}
      <div className="digital-single">
        <div className="stack">
          <p className="digital-disclaimer">{t("translations.disclaimer")}</p>
          {data.load.displayType === "previous-uploads-type" ? <p className="alert alert-info">{t("translations.noUsesLeft")}</p> : null}
          {uses > 0 ? (
            <TranslationUploadForm errors={reply?.errors ?? { fields: {}, form: null }} languages={data.load.languages} />
          ) : (
            <section className="card stack digital-subscribe-notice">
              <h2>{t("translations.buyHeading")}</h2>
              <p>{t("translations.buyBody")}</p>
            </section>
          )}
          <p>
            <a className="button" href={paths.digitalTranslationsPurchase(lang)}>
              {t("translations.buyButton")}
            </a>
          </p>
          <PurchaseList purchases={data.load.digitalPurchases} />
          <section className="stack" aria-labelledby="digital-list-heading">
            <h2 id="digital-list-heading">{t("translations.listHeading")}</h2>
            {processing ? <p className="field-hint">{t("list.processingHint")}</p> : null}
            {data.results.length ? <DigitalOrderRows rows={data.results} /> : <p className="field-hint">{t("list.empty")}</p>}
            <ListPages
              page={data.pagination.page}
              pages={data.pagination.pages}
              href={(page) => paths.digitalTranslations(lang, data.status ?? undefined, { page })}
            />
          </section>
        </div>
      </div>
    </div>
  );
}
