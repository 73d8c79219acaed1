// The researcher's digital edits and translations (spec 3 §4): processing grey with a spinner, completed green,
// failed red with the failure key ('automated-edit-failure' / 'digital-translation-failure') and delete. Rows still
// processing are polled with JavaScript (useRowPolling) and updated in place; without it the page refreshes.
import { useState } from "react";
import { formatDateTime } from "#common/format";
import { paths } from "#common/paths";
import type { DigitalEditView, DigitalOrderView } from "#server/digital/types";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { ConfirmDelete } from "./ConfirmDelete";
import { useRowPolling } from "./polling";

function usePolledRows<Row extends { identity: string; status: string }>(initial: Row[], url: (ids: string[]) => string): Row[] {
  const [rows, setRows] = useState(initial);
  const [source, setSource] = useState(initial);
  if (source !== initial) {
    setSource(initial);
    setRows(initial);
  }
  useRowPolling<Row>(
    rows.filter((r) => r.status === "processing").map((r) => r.identity),
    url,
    (fresh) => setRows((current) => current.map((row) => fresh.find((f) => f.identity === row.identity) ?? row)),
  );
  return rows;
}

function Status({ status, failureKey }: { status: string; failureKey: string }) {
  const { t } = useTranslation("digital");
  if (status === "processing")
    return (
      <p className="digital-status digital-status-processing" role="status">
        <span className="spinner" aria-hidden="true" /> {t("status.processing")}
      </p>
    );
  if (status === "completed") return <p className="digital-status digital-status-completed">{t("status.completed")}</p>;
  return (
    <div className="alert alert-danger digital-failed" role="alert">
      <p>
        <strong>{t("status.failed")}</strong> {t(`errors.${failureKey}`)}
      </p>
    </div>
  );
}

export function DigitalEditRows({ rows: initial }: { rows: DigitalEditView[] }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  const rows = usePolledRows(initial, paths.api.digitalEditPoll);
  return (
    <ul className="digital-list">
      {rows.map((row) => (
        <li key={row.identity} className={`digital-row digital-${row.status}`} data-identity={row.identity}>
          <div className="digital-main">
            <p className="digital-name">
              {row.status === "completed" ? (
                <a href={paths.digitalEditingDetails(lang, row.identity)}>{row.fileName}</a>
              ) : (
                <span>{row.fileName}</span>
              )}
            </p>
            <p className="field-hint">
              {t("list.uploaded", { date: formatDateTime(row.createdAt, lang) })} ·{" "}
              {t(`style.${row.styleOfEnglish === "British English" ? "british" : "american"}`)}
              {row.status === "completed" && row.changes !== null ? <> · {t("list.changes", { count: row.changes })}</> : null}
            </p>
            <Status status={row.status} failureKey="automated-edit-failure" />
          </div>
          <div className="digital-actions">
            {row.status === "completed" ? (
              <>
                <a className="button button-small button-primary" href={paths.api.digitalEditDownload(row.identity)} download>
                  {t("details.downloadTracked")}
                </a>
                <a className="button button-small" href={paths.digitalEditingDetails(lang, row.identity)}>
                  {t("list.details")}
                </a>
              </>
            ) : null}
            {row.status !== "processing" ? (
              <ConfirmDelete href={paths.digitalEditingDelete(lang, row.identity)} fileName={row.fileName} />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function DigitalOrderRows({ rows: initial }: { rows: DigitalOrderView[] }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  const rows = usePolledRows(initial, paths.api.digitalOrderPoll);
  return (
    <ul className="digital-list">
      {rows.map((row) => (
        <li key={row.identity} className={`digital-row digital-${row.status}`} data-identity={row.identity}>
          <div className="digital-main">
            <p className="digital-name">
              <span>{row.fileName}</span>
              {row.engine === "sandbox" ? <span className="badge digital-test-mode">{t("translations.testMode")}</span> : null}
            </p>
            <p className="field-hint">
              {t("list.uploaded", { date: formatDateTime(row.createdAt, lang) })}
              {row.language ? <> · {t(`languages.${row.language}`)}</> : null}
            </p>
            {row.status === "completed" ? <p className="field-hint">{t("translations.draftQuality")}</p> : null}
            <Status status={row.status} failureKey="digital-translation-failure" />
          </div>
          <div className="digital-actions">
            {row.status === "completed" ? (
              <a className="button button-small button-primary" href={paths.api.digitalOrderDownload(row.identity)} download>
                {t("translations.download")}
              </a>
            ) : null}
            {row.status !== "processing" ? (
              <ConfirmDelete href={paths.digitalTranslationsDelete(lang, row.identity)} fileName={row.fileName} />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Pages of a list (30 a page): plain links. */
export function ListPages({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  const { t } = useTranslation("digital");
  if (pages <= 1) return null;
  return (
    <nav className="gc-pagination" aria-label={t("list.pagination")}>
      <p className="field-hint">{t("list.page", { page, pages })}</p>
      <ul>
        {page > 1 ? (
          <li>
            <a href={href(page - 1)} rel="prev">
              ‹ {t("list.previous")}
            </a>
          </li>
        ) : null}
        {page < pages ? (
          <li>
            <a href={href(page + 1)} rel="next">
              {t("list.next")} ›
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
