// The invoice list's fapiao cell (issue 13 §4) where the invoice's localisation processes fapiao after payment:
// the live fapiao's status with its PDF once issued, a request link once the invoice is paid, else a dash.
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import type { InvoiceRow } from "#server/billing/invoices/list";

export function FapiaoCell({ invoice }: { invoice: InvoiceRow }) {
  const { t } = useTranslation("fapiao");
  const lang = useLang();
  const f = invoice.fapiao;
  if (f)
    return (
      <span className="fapiao-cell">
        <span className={`fapiao-status fapiao-status-${f.status}`}>{t(`statuses.${f.status}`)}</span>
        {f.number ? <span>{f.number}</span> : null}
        {f.url ? (
          <a href={f.url} download>
            {t("list.download")}
          </a>
        ) : null}
        <Link to={paths.invoiceFapiao(lang, invoice.invoiceNumber)}>{t("list.view")}</Link>
      </span>
    );
  if (invoice.status === "paid") return <Link to={paths.invoiceFapiao(lang, invoice.invoiceNumber)}>{t("list.request")}</Link>;
  return <span className="field-hint">{t("list.afterPayment")}</span>;
}
