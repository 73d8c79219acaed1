import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { formatDateTime } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { listDigitalSurveyAnswers, type SurveyAnswerView, type SurveySummary } from "#server/digital";
import { pageParam } from "#app/components/digital/access.server";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/staff/surveys (ADR 074): staff read the digital tools' survey answers, newest first, 50 a page, with the
// average usefulness and the share who would recommend. Read only.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await listDigitalSurveyAnswers(scope, pageParam(new URL(request.url).searchParams.get("page")));
  if (!r.ok) throw new Response("Forbidden", { status: errorStatus(r.error) });
  const t = await getFixedT(request, "digital");
  return Response.json({ title: t("staffSurvey.title"), ...r.value }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function StaffSurveys() {
  const data = useLoaderData() as { answers: SurveyAnswerView[]; summary: SurveySummary; page: number; pages: number };
  const { t } = useTranslation("digital");
  const lang = useLang();
  const avg = data.summary.averageUsefulnessTenths;
  return (
    <section className="stack">
      <h1>{t("staffSurvey.title")}</h1>
      <dl className="facts">
        <dt>{t("staffSurvey.answers")}</dt>
        <dd>{data.summary.answers}</dd>
        <dt>{t("staffSurvey.average")}</dt>
        <dd>{avg === null ? "—" : `${Math.floor(avg / 10)}.${avg % 10} / 5`}</dd>
        <dt>{t("staffSurvey.recommend")}</dt>
        <dd>{data.summary.recommendPercent === null ? "—" : `${data.summary.recommendPercent} %`}</dd>
      </dl>
      {data.answers.length ? (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("staffSurvey.date")}</th>
                <th scope="col">{t("staffSurvey.researcher")}</th>
                <th scope="col">{t("survey.usefulness")}</th>
                <th scope="col">{t("survey.recommend")}</th>
                <th scope="col">{t("survey.comment")}</th>
              </tr>
            </thead>
            <tbody>
              {data.answers.map((a) => (
                <tr key={a.id}>
                  <td>{formatDateTime(a.createdAt, lang)}</td>
                  <td className="break">{a.userEmail ?? "—"}</td>
                  <td>{a.usefulness}</td>
                  <td>{t(a.recommend ? "survey.yes" : "survey.no")}</td>
                  <td className="digital-comment">{a.comment ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="field-hint">{t("staffSurvey.empty")}</p>
      )}
      {data.pages > 1 ? (
        <nav className="gc-pagination" aria-label={t("list.pagination")}>
          <p className="field-hint">{t("list.page", { page: data.page, pages: data.pages })}</p>
          <ul>
            {data.page > 1 ? (
              <li>
                <a href={paths.staffSurveys(lang, { page: data.page - 1 })}>‹ {t("list.previous")}</a>
              </li>
            ) : null}
            {data.page < data.pages ? (
              <li>
                <a href={paths.staffSurveys(lang, { page: data.page + 1 })}>{t("list.next")} ›</a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
