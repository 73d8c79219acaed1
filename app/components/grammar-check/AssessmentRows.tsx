// The researcher's assessments (spec 3 §2): score circle, file name (a link to the report once complete), upload
// date in the page's language with the 12-hour clock, processing indicator; failed rows say 'could not complete'
// with the failure alerts and offer delete; completed rows offer 'See details' and archive. Rows still processing
// are polled with JavaScript (useAssessmentPolling) and updated in place.
import { useState } from "react";
import { formatDateTime } from "#common/format";
import { paths } from "#common/paths";
import type { AssessmentView } from "#server/grammar-check/types";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { ScoreCircle } from "./ScoreCircle";
import { ConfirmAction } from "./ConfirmAction";
import { useAssessmentPolling } from "./polling";

export function AssessmentRows({ rows: initial, page, canArchive }: { rows: AssessmentView[]; page: number; canArchive: boolean }) {
  const [rows, setRows] = useState(initial);
  // A new list from the server (another page, an upload) replaces what polling changed.
  const [source, setSource] = useState(initial);
  if (source !== initial) {
    setSource(initial);
    setRows(initial);
  }
  useAssessmentPolling(
    rows.filter((r) => r.processing).map((r) => r.identity),
    (fresh) => setRows((current) => current.map((row) => fresh.find((f) => f.identity === row.identity) ?? row)),
  );
  return (
    <ul className="assessment-list">
      {rows.map((row) => (
        <AssessmentRow key={row.identity} row={row} page={page} canArchive={canArchive} />
      ))}
    </ul>
  );
}

function AssessmentRow({ row, page, canArchive }: { row: AssessmentView; page: number; canArchive: boolean }) {
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const state = row.complete ? "complete" : row.failed ? "failed" : "processing";
  const details = paths.grammarCheckDetails(lang, row.identity, page);
  return (
    <li className={`assessment-row assessment-${state}`} data-identity={row.identity}>
      <ScoreCircle score={row.score} state={state} />
      <div className="assessment-main">
        <p className="assessment-name">{row.complete ? <a href={details}>{row.name}</a> : <span>{row.name}</span>}</p>
        <p className="field-hint">{t("list.uploaded", { date: formatDateTime(row.createdAt, lang) })}</p>
        {row.complete && row.category ? (
          <p className={`assessment-category gc-${row.category}`}>{t(`scoreCategory.${row.category}`)}</p>
        ) : null}
        {state === "processing" ? (
          <p className="assessment-processing" role="status">
            <span className="spinner" aria-hidden="true" /> {t("list.processing")}
          </p>
        ) : null}
        {state === "failed" ? (
          <div className="alert alert-danger assessment-failed" role="alert">
            <p>
              <strong>{t("list.couldNotComplete")}</strong>
            </p>
            {row.scoreStatus === "failed" ? <p>{t("alerts.language-assessment-failure")}</p> : null}
            {row.errorCountStatus === "failed" ? <p>{t("alerts.language-assessment-error-count-failure")}</p> : null}
          </div>
        ) : null}
      </div>
      <div className="assessment-actions">
        {row.complete ? (
          <a className="button button-small button-primary" href={details}>
            {t("list.seeDetails")}
          </a>
        ) : null}
        {row.complete && canArchive ? (
          <ConfirmAction
            href={paths.grammarCheckArchive(lang, row.identity, page)}
            label={t("list.archive")}
            heading={t("confirm.archiveHeading", { fileName: row.name })}
            body={t("confirm.archiveBody")}
            confirm={t("confirm.archive")}
          />
        ) : null}
        {state === "failed" ? (
          <ConfirmAction
            href={paths.grammarCheckDelete(lang, row.identity, page)}
            label={t("list.delete")}
            heading={t("confirm.deleteHeading", { fileName: row.name })}
            body={t("confirm.deleteBody")}
            confirm={t("confirm.delete")}
            danger
          />
        ) : null}
      </div>
    </li>
  );
}
