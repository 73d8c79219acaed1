import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { OrderCertificate } from "../OrderCertificate";
import { DownloadAllButton } from "../DownloadAllButton";
import type { OrderDetailsData } from "./types";

const KB = 1024;
const size = (n: number) => (n < KB * KB ? `${Math.max(1, Math.round(n / KB))} KB` : `${(n / KB / KB).toFixed(1)} MB`);

/**
 * The completion message (spec 2 §4): not completed = 'not ready'; completed and downloadable = 'ready' with
 * Download All and each file; completed without download = 'awaiting payment' with the proof-of-payment link.
 */
export function CompletedFiles({ data }: { data: OrderDetailsData }) {
  const { t } = useTranslation("details");
  const lang = useLang();
  const { order } = data;
  const state = !order.flags.completed ? "not-ready" : order.flags.downloadAvailable ? "ready" : "awaiting-payment";
  return (
    <section className="card stack" aria-labelledby="files-heading" data-completion={state}>
      <h2 id="files-heading">{t("files.title")}</h2>
      {state === "not-ready" ? <p>{t("files.notReady")}</p> : null}
      {state === "awaiting-payment" ? (
        <div className="alert alert-warning">
          <p>{t("files.awaitingPayment")}</p>
          <p>
            <Link to={paths.supportSubmissionType(lang, order.externalId, "proof-of-payment")}>{t("files.proofOfPayment")}</Link>
          </p>
        </div>
      ) : null}
      {state === "ready" ? (
        <>
          <p>{t("files.ready")}</p>
          <DownloadAllButton
            href={paths.api.orderDeliverablesZip(order.externalId)}
            totalBytes={data.deliverables.reduce((sum, d) => sum + d.sizeBytes, 0)}
            label={t("files.downloadAll")}
          />
          <ul className="file-list">
            {data.deliverables.map((d) => (
              <li key={d.key}>
                <a href={paths.api.orderDeliverable(order.externalId, d.key)} download>
                  {d.name}
                </a>{" "}
                <span className="field-hint">{size(d.sizeBytes)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** The main panel outside edit mode (spec 2 §2): files, certificate, re-edit, support, the preprint promotion. */
export function MainPanel({ data }: { data: OrderDetailsData }) {
  const { t } = useTranslation("details");
  const lang = useLang();
  const { order } = data;
  return (
    <div className="stack">
      <CompletedFiles data={data} />
      {order.flags.completed ? (
        <OrderCertificate certificate={order.flags.certificateReady ? order.certificate : null} editable={order.flags.certificateReady} />
      ) : null}
      {order.flags.reeditAvailable ? (
        <section className="card stack" aria-labelledby="reedit-heading">
          <h2 id="reedit-heading">{t("reedit.title")}</h2>
          <p>{order.flags.touchUpAvailable ? t("reedit.free") : t("reedit.body")}</p>
          <p>
            <Link to={paths.orderReedit(lang, order.externalId)}>{t("order:rework.requestLink")}</Link>
          </p>
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="support-heading">
        <h2 id="support-heading">{t("support.title")}</h2>
        <p>{t("support.body")}</p>
        <p>
          <Link to={paths.supportSubmission(lang, order.externalId)}>{t("support.link")}</Link>
        </p>
      </section>
      {data.preprint ? (
        <section className="card stack" aria-labelledby="preprint-heading">
          <h2 id="preprint-heading">{t("preprint.title")}</h2>
          <p>{t("preprint.body")}</p>
        </section>
      ) : null}
    </div>
  );
}
