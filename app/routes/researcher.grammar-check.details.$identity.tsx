import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime } from "#common/format";
import { LANG_TAG } from "#common/i18n";
import { recommendsEditing, scoreText, ISSUE_CATEGORIES } from "#common/grammar-check/constants";
import { paths } from "#common/paths";
import type { AssessmentDetails } from "#server/grammar-check/types";
import { editingPrice, getAssessment } from "#server/grammar-check";
import { grammarPage, pageParam } from "#app/components/grammar-check/access.server";
import { ScoreCircle } from "#app/components/grammar-check/ScoreCircle";
import { PercentileChart } from "#app/components/grammar-check/PercentileChart";
import { IssuesChart } from "#app/components/grammar-check/IssuesChart";
import { IssuesInContext } from "#app/components/grammar-check/IssuesInContext";
import { NextSteps } from "#app/components/grammar-check/NextSteps";
import { ConfirmAction } from "#app/components/grammar-check/ConfirmAction";
import { RefreshWhileProcessing } from "#app/components/grammar-check/RefreshWhileProcessing";
import { ReportPoller } from "#app/components/grammar-check/ReportPoller";
import { percentileOrdinal } from "#app/components/grammar-check/ordinal";

export const meta = titleMeta;
export const handle = { i18n: ["grammar"] };

// /{lang}/researcher/grammar-check/details/{identity}?from=N (spec 3 §2, §4; ADR 071): the 'Language Quality
// Report'. An identity that is unknown, archived or someone else's goes back to the list (spec 3 §8).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope, anonymous } = await grammarPage(request, context);
  const from = pageParam(new URL(request.url).searchParams.get("from"));
  const r = await getAssessment(scope, params.identity ?? "");
  if (!r.ok) throw redirect(paths.grammarCheck(scope.lang, { page: from }));
  const t = await getFixedT(request, "grammar");
  const price = r.value.complete && r.value.category && recommendsEditing(r.value.category) ? await editingPrice(scope) : null;
  return Response.json(
    { title: `${t("details.heading")}: ${r.value.name}`, assessment: r.value, anonymous, from, price },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

interface LoaderData {
  assessment: AssessmentDetails;
  anonymous: boolean;
  from: number;
  price: string | null;
}

export default function GrammarReportPage() {
  const { assessment: a, anonymous, from, price } = useLoaderData() as LoaderData;
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const state = a.complete ? "complete" : a.failed ? "failed" : "processing";
  const total = a.errorCount ? ISSUE_CATEGORIES.reduce((sum, c) => sum + (a.errorCount?.[c] ?? 0), 0) : a.issues.length;
  return (
    <div className="gc-page gc-report stack">
      <RefreshWhileProcessing active={a.processing} />
      <ReportPoller identity={a.identity} active={a.processing} />
      <p>
        <a href={paths.grammarCheck(lang, { page: from })}>‹ {t("details.back")}</a>
      </p>
      <div className="gc-heading">
        <h1>{t("details.heading")}</h1>
        <span className="badge badge-brand">{t("badge")}</span>
      </div>
      <section className="card gc-summary">
        <ScoreCircle score={a.score} state={state} size={112} />
        <div className="gc-summary-text">
          <p className="gc-file-name">{a.name}</p>
          <p className="field-hint">
            {t("details.uploaded", { date: formatDateTime(a.createdAt, lang) })}
            {a.words !== null ? ` · ${t("details.words", { count: a.words })}` : ""}
            {a.dialect ? ` · ${t(`details.dialect.${a.dialect}`)}` : ""}
          </p>
          {state === "complete" && a.category && a.score !== null ? (
            <p className={`gc-category gc-${a.category}`}>
              <strong>{scoreText(a.score, LANG_TAG[lang])}</strong> {t("details.outOf")} · {t(`scoreCategory.${a.category}`)}
            </p>
          ) : null}
        </div>
        <div className="gc-summary-actions">
          {anonymous ? (
            <a className="button" href={paths.grammarCheck(lang)}>
              {t("upload.another")}
            </a>
          ) : state !== "processing" ? (
            <ConfirmAction
              href={
                state === "failed" ? paths.grammarCheckDelete(lang, a.identity, from) : paths.grammarCheckArchive(lang, a.identity, from)
              }
              label={state === "failed" ? t("list.delete") : t("details.archive")}
              heading={t(state === "failed" ? "confirm.deleteHeading" : "confirm.archiveHeading", { fileName: a.name })}
              body={t(state === "failed" ? "confirm.deleteBody" : "confirm.archiveBody")}
              confirm={t(state === "failed" ? "confirm.delete" : "confirm.archive")}
              danger={state === "failed"}
            />
          ) : null}
        </div>
      </section>

      {state === "processing" ? (
        <p className="alert alert-info" role="status">
          <span className="spinner" aria-hidden="true" /> {t("details.processing")}
        </p>
      ) : null}
      {state === "failed" ? (
        <div className="alert alert-danger" role="alert">
          <p>
            <strong>{t("list.couldNotComplete")}</strong>
          </p>
          {a.scoreStatus === "failed" ? <p>{t("alerts.language-assessment-failure")}</p> : null}
          {a.errorCountStatus === "failed" ? <p>{t("alerts.language-assessment-error-count-failure")}</p> : null}
        </div>
      ) : null}

      {state === "complete" && a.score !== null && a.category ? (
        <>
          <section className="card stack" aria-labelledby="gc-quality">
            <h2 id="gc-quality">{t("details.qualityHeading")}</h2>
            {/* Without a reference set (none built yet) there is no percentile to state: say so, draw nothing. */}
            {a.percentile !== null && a.percentiles.length > 0 && a.reference.documents > 0 ? (
              <>
                <p>{t("details.percentileSentence", { percent: Math.round(a.percentile), ordinal: percentileOrdinal(t, a.percentile) })}</p>
                <PercentileChart percentiles={a.percentiles} percentile={a.percentile} score={a.score} category={a.category} />
                <p className="field-hint">{t(`details.reference.${a.reference.source}`, { count: a.reference.documents })}</p>
              </>
            ) : (
              <p>{t("details.noReference")}</p>
            )}
          </section>

          <section className="card stack" aria-labelledby="gc-issues">
            <h2 id="gc-issues">{t("details.issuesHeading")}</h2>
            {a.errorCountStatus === "skipped" || !a.errorCount ? (
              <p>{t("details.issuesSkipped")}</p>
            ) : (
              <IssuesChart errorCount={a.errorCount} />
            )}
          </section>

          <section className="card stack" aria-labelledby="gc-context">
            <h2 id="gc-context">{t("details.contextHeading")}</h2>
            <p>{t("details.contextIntro")}</p>
            <p className="alert alert-warning">{t("details.blindSpots")}</p>
            <IssuesInContext issues={a.issues} total={total} />
          </section>

          <NextSteps identity={a.identity} category={a.category} price={price ?? ""} anonymous={anonymous} />
        </>
      ) : null}
    </div>
  );
}
