// The unpaid-invoice banner (spec 2 §2): how many invoices wait for payment, each listed only when there are
// 10 or fewer, and 'Pay Now' to the unpaid-invoices page.
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import type { UnpaidInvoice } from "#server/orders/dashboard";

export function UnpaidBanner({ count, invoices, timeZone }: { count: number; invoices: UnpaidInvoice[] | null; timeZone: string }) {
  const { t } = useTranslation("dashboard");
  const lang = useLang();
  if (count === 0) return null;
  return (
    <section className="alert alert-warning unpaid-banner" aria-labelledby="unpaid-title">
      <div className="unpaid-banner-head">
        <div>
          <h2 id="unpaid-title">{t("unpaid.title")}</h2>
          <p>{t("unpaid.count", { count })}</p>
        </div>
        <Link className="button button-primary" to={paths.invoicesUnpaid(lang)}>
          {t("unpaid.payNow")}
        </Link>
      </div>
      {invoices?.length ? (
        <table className="unpaid-invoices">
          <thead>
            <tr>
              <th scope="col">{t("unpaid.number")}</th>
              <th scope="col">{t("unpaid.date")}</th>
              <th scope="col" className="amount">
                {t("unpaid.balance")}
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((i) => (
              <tr key={i.number}>
                <td>{i.number}</td>
                <td>{formatDate(i.createdAt, lang, timeZone)}</td>
                <td className="amount">{formatMoney(i.balance, i.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
