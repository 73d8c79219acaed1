// One order of the dashboard's list (spec 2 §2 "Order panel"): number and title, status, dates, services, and
// what the order offers now, each only when it applies (the flags of server/orders/life.ts decide): the
// download of every file, the invoice (its PDF, its fapiao, staff's "record a payment"), the certificate, a re-edit,
// support, the details page.
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import type { OrderPanel as Panel } from "#server/orders/dashboard";
import type { PanelFapiao } from "#server/fapiao";
import { DownloadAllButton } from "#app/components/DownloadAllButton";

interface Props {
  order: Panel;
  timeZone: string;
  /** The invoice's fapiao: the live one (status, PDF) or the request link; null when neither applies. */
  fapiao: PanelFapiao | null;
  /** Staff act for the researcher: an unpaid invoice links to the staff page where its payment is recorded. */
  staffActing: boolean;
}

export function OrderPanel({ order, timeZone, fapiao, staffActing }: Props) {
  const { t } = useTranslation("dashboard");
  const lang = useLang();
  const when = (iso: string) => formatDateTime(iso, lang, timeZone);
  const details = paths.orderDetails(lang, order.externalId);
  const titleId = `order-${order.externalId}`;
  return (
    <li className="card order-panel" aria-labelledby={titleId} data-order={order.externalId}>
      <div className="order-panel-head">
        <h2 id={titleId} className="order-panel-title">
          <span className="order-panel-number">{order.externalId}</span> <Link to={details}>{order.title}</Link>
        </h2>
        <p className={`badge order-status order-status-${order.displayStatus}`}>
          <span className="visually-hidden">{t("panel.status")}: </span>
          {t(`orders:status.${order.displayStatus}`)}
        </p>
      </div>
      <dl className="order-panel-facts">
        <div>
          <dt>{t("panel.created")}</dt>
          <dd>{when(order.createdAt)}</dd>
        </div>
        {order.completedAt ? (
          <div>
            <dt>{t("panel.completed")}</dt>
            <dd>{when(order.completedAt)}</dd>
          </div>
        ) : (
          <div>
            <dt>{t("panel.due")}</dt>
            <dd>{order.deadline ? when(order.deadline) : t("panel.noDeadline")}</dd>
          </div>
        )}
        <div className="order-panel-services">
          <dt>{t("panel.services")}</dt>
          <dd>
            <ul>
              {order.services.map((key) => (
                <li key={key}>{t(key)}</li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
      {order.filesAwaitingPayment ? <p className="alert alert-warning order-panel-note">{t("panel.awaitingPayment")}</p> : null}
      {order.invoice ? (
        <p className="order-panel-invoice">
          {order.invoice.balance > 0
            ? t("panel.invoice", { number: order.invoice.number, balance: formatMoney(order.invoice.balance, order.currency) })
            : t("panel.invoicePaid", { number: order.invoice.number })}{" "}
          {order.invoice.balance > 0 && !order.boletoUrl ? (
            <Link to={paths.invoicesPay(lang, [order.invoice.number])}>{t("panel.payNow")}</Link>
          ) : null}
          {order.boletoUrl ? (
            <a href={order.boletoUrl} target="_blank" rel="noreferrer">
              {t("panel.boleto")}
            </a>
          ) : null}
        </p>
      ) : null}
      {order.invoice ? (
        <ul className="order-panel-links">
          <li>
            <a href={paths.api.invoicePdf(order.invoice.number)} className="order-panel-invoice-pdf">
              {t("panel.invoicePdf")}
            </a>
          </li>
          {fapiao?.live ? (
            <li className="order-panel-fapiao">
              {t("panel.fapiaoStatus", { status: t(`fapiao:statuses.${fapiao.live.status}`) })}{" "}
              {fapiao.live.hasPdf ? <a href={paths.api.fapiaoPdf(fapiao.live.id)}>{t("panel.fapiaoDownload")}</a> : null}
            </li>
          ) : fapiao?.requestable ? (
            <li className="order-panel-fapiao">
              <Link to={paths.invoiceFapiao(lang, order.invoice.number)}>{t("panel.fapiaoRequest")}</Link>
            </li>
          ) : null}
          {staffActing && order.invoice.balance > 0 ? (
            <li>
              {/* Staff record payments on the staff order page: leaving "view as" first (a POST, no state change on GET). */}
              <Form method="post" action={paths.staffStopImpersonation(lang)} reloadDocument>
                <input type="hidden" name="next" value={`${paths.staffOrder(lang, order.externalId)}#so-payment`} />
                <button type="submit" className="link-button order-panel-record-payment">
                  {t("panel.recordPayment")}
                </button>
              </Form>
            </li>
          ) : null}
        </ul>
      ) : null}
      <div className="actions order-panel-actions">
        {order.downloadAvailable ? (
          <DownloadAllButton href={paths.api.orderDeliverablesZip(order.externalId)} label={t("panel.download")} />
        ) : null}
        <Link className="button button-small" to={details}>
          {t("panel.details")}
        </Link>
        {order.certificateReady ? <Link to={`${details}#certificate`}>{t("panel.certificate")}</Link> : null}
        {order.reeditAvailable ? <Link to={paths.orderReedit(lang, order.externalId)}>{t("panel.reedit")}</Link> : null}
        <Link to={paths.supportSubmission(lang, order.externalId)}>{t("panel.support")}</Link>
      </div>
    </li>
  );
}
