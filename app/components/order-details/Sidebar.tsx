import type { ReactNode } from "react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";
import type { OrderDetailsData } from "./types";
import { InvoiceDocuments, SurplusNote } from "../invoices/InvoiceDocuments";
import { FapiaoCell } from "../fapiao/FapiaoCell";

// The details page's sidebar (spec 2 §2): deadline, services, original files, payment; in edit mode the
// target journal and style of English fields are passed in as `editFields`.
export function OrderSidebar({ data, editFields }: { data: OrderDetailsData; editFields?: ReactNode }) {
  const { t } = useTranslation("details");
  const lang = useLang();
  const { order, bank, timeZone, invoiceRow } = data;
  return (
    <aside className="details-sidebar stack" aria-label={t("sidebar.label")}>
      <section>
        <h2>{t("sidebar.deadline")}</h2>
        <p data-deadline>{order.deadline ? formatDateTime(order.deadline, lang, timeZone) : t("sidebar.deadlineByQuote")}</p>
        {order.completedAt ? (
          <p className="deadline">{t("sidebar.completedAt", { date: formatDateTime(order.completedAt, lang, timeZone) })}</p>
        ) : null}
      </section>
      <section>
        <h2>{t("sidebar.services")}</h2>
        <table className="summary-table">
          <tbody>
            {order.lineItems.map((l) => (
              <tr key={l.serviceIdentity}>
                <th scope="row">
                  {t(l.nameKey)}
                  {l.quantity > 1 ? ` × ${l.quantity}` : ""}
                </th>
                <td className="amount">{formatMoney(l.totalPrice, order.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t("sidebar.total")}</th>
              <td className="amount total" data-total>
                {formatMoney(order.total, order.currency)}
              </td>
            </tr>
          </tfoot>
        </table>
      </section>
      <section>
        <h2>{t("sidebar.originalFiles")}</h2>
        {data.originalFiles.length ? (
          <ul className="file-list">
            {data.originalFiles.map((f, i) => (
              <li key={`${f.name}-${i}`}>{f.name}</li>
            ))}
          </ul>
        ) : (
          <p>{t("sidebar.noFiles")}</p>
        )}
      </section>
      <section>
        <h2>{t("sidebar.payment")}</h2>
        {order.paid ? (
          <>
            <p>{t("sidebar.paid")}</p>
            {order.invoice ? <p>{t("sidebar.invoice", { number: order.invoice.number })}</p> : null}
          </>
        ) : order.invoice ? (
          <>
            <p>{t("sidebar.invoice", { number: order.invoice.number })}</p>
            <p data-balance>{t("sidebar.balance", { amount: formatMoney(order.invoice.balance, order.currency) })}</p>
            {bank && order.invoice.status === "unpaid" ? (
              <details>
                <summary>{t("sidebar.bankDetails")}</summary>
                <dl className="details-list">
                  <dt>{t("order:bank.beneficiary")}</dt>
                  <dd>{bank.beneficiary}</dd>
                  <dt>{t("order:bank.bankName")}</dt>
                  <dd>{bank.bankName}</dd>
                  <dt>{t("order:bank.account")}</dt>
                  <dd>{bank.account}</dd>
                  <dt>{t("order:bank.swift")}</dt>
                  <dd>{bank.swift}</dd>
                  <dt>{t("order:bank.reference")}</dt>
                  <dd>{order.invoice.number}</dd>
                </dl>
              </details>
            ) : null}
          </>
        ) : (
          <p>{t("sidebar.paymentPending")}</p>
        )}
        {/* Every document of the invoice, a pending boleto, its fapiao, and Pay or the pending attempt. */}
        {invoiceRow ? (
          <div className="details-invoice stack" data-invoice-panel>
            <InvoiceDocuments invoice={invoiceRow} />
            <SurplusNote invoice={invoiceRow} />
            {invoiceRow.allowsFapiao || invoiceRow.fapiao ? (
              <p className="details-fapiao">
                <span>{t("invoices:table.fapiao")}: </span>
                <FapiaoCell invoice={invoiceRow} />
              </p>
            ) : null}
          </div>
        ) : null}
      </section>
      {editFields}
      {!editFields && (order.styleOfEnglish || order.journal) ? (
        <section>
          <dl className="details-list">
            {order.styleOfEnglish ? (
              <>
                <dt>{t("edit.styleOfEnglish")}</dt>
                <dd data-style-of-english>{t(`edit.styles.${order.styleOfEnglish}`)}</dd>
              </>
            ) : null}
            {order.journal ? (
              <>
                <dt>{t("edit.journal")}</dt>
                <dd data-journal>
                  {order.journal.name}
                  {order.journal.url ? ` (${order.journal.url})` : ""}
                </dd>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
    </aside>
  );
}
