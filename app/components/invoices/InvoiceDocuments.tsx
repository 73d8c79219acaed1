// An invoice's documents and its one action, as the invoice list and the order details page both show them
// (issue 21 defect 11c, 11d): the invoice PDF, the statement of delivery, each receipt, a pending boleto (of an
// invoice payment or of the wizard alike), and "Continue the pending payment" while an attempt is open, else "Pay"
// while something is due. The overpayment line says where a surplus went (ADR 051). Plain links: no JavaScript.
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import type { InvoiceRow } from "#server/billing/invoices/list";

export function InvoiceDocuments({ invoice: i, payAction = true }: { invoice: InvoiceRow; payAction?: boolean }) {
  const { t } = useTranslation("invoices");
  const lang = useLang();
  return (
    <ul className="plain-list invoice-doc-list">
      <li>
        <a href={paths.api.invoicePdf(i.invoiceNumber)} target="_blank" rel="noreferrer">
          {t("actions.invoicePdf")}
        </a>
      </li>
      <li>
        {i.statementOfDelivery === "ready" ? (
          <a href={paths.api.statementOfDelivery(i.invoiceNumber)} target="_blank" rel="noreferrer">
            {t("actions.statement")}
          </a>
        ) : (
          <span className="field-hint">{t("actions.statementPending")}</span>
        )}
      </li>
      {i.receipts.map((r) => (
        <li key={r.id}>
          <a href={paths.api.paymentReceiptPdf(r.id)} target="_blank" rel="noreferrer">
            {/* A balance spend is named as one, never as a payment received (ADR 052). */}
            {t(r.kind === "payment" ? "actions.receipt" : `actions.settlement.${r.kind}`, {
              date: formatDate(`${r.receivedOn}T12:00:00Z`, lang, "UTC"),
            })}
          </a>
        </li>
      ))}
      {i.boletoPaymentId ? (
        <li>
          <a href={paths.api.boletoPdf(i.boletoPaymentId)} target="_blank" rel="noreferrer" data-boleto>
            {t("actions.boleto")}
          </a>
        </li>
      ) : null}
      {i.unpaid && i.pendingPaymentId ? (
        <li>
          <Link className="button button-small button-primary" to={paths.paymentPending(lang, i.pendingPaymentId)} data-pending-payment>
            {t("actions.pendingPayment")}
          </Link>
        </li>
      ) : payAction && i.unpaid ? (
        <li>
          <Link className="button button-small button-primary" to={paths.invoicesPay(lang, [i.invoiceNumber])} data-pay>
            {t("actions.pay")}
          </Link>
        </li>
      ) : null}
    </ul>
  );
}

/** "Overpaid by $260: credited to your prepaid balance (CR100004)" — or refunded, or both (ADR 051). */
export function SurplusNote({ invoice }: { invoice: InvoiceRow }) {
  const { t } = useTranslation("invoices");
  if (!invoice.surplus.length) return null;
  return (
    <>
      {invoice.surplus.map((s) => {
        const credited = Math.max(0, s.amount - s.refunded);
        const key = s.refunded <= 0 ? "surplus.credited" : credited <= 0 ? "surplus.refunded" : "surplus.partlyRefunded";
        return (
          <p key={s.currencyIso} className="alert alert-info invoice-surplus" data-surplus>
            {t(key, {
              amount: formatMoney(s.amount, s.currency),
              credited: formatMoney(credited, s.currency),
              refunded: formatMoney(s.refunded, s.currency),
              credit: s.creditNumbers.join(", "),
            })}
          </p>
        );
      })}
    </>
  );
}
