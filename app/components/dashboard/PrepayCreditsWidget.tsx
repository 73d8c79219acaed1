// The dashboard's "Prepay and credits" widget (spec 2 §2, issue 13): the researcher's prepaid and credit
// balance, linking to the prepay page. Shown only when the server gave a balance (above 0, invoices not hidden).
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatMoney, type CurrencyFormat } from "#common/format";
import { paths } from "#common/paths";

/** `prepayOpen`: the prepay_enabled flag; off, the widget shows the balance without its link to the prepay page. */
export function PrepayCreditsWidget({ amount, currency, prepayOpen }: { amount: number; currency: CurrencyFormat; prepayOpen: boolean }) {
  const { t } = useTranslation("credits");
  const lang = useLang();
  return (
    <section className="card dashboard-widget prepay-widget" aria-labelledby="prepay-widget-title">
      <h2 id="prepay-widget-title">{t("widget.title")}</h2>
      <p className="prepay-widget-amount">
        <span>{t("widget.balance")}</span> <strong>{formatMoney(amount, currency)}</strong>
      </p>
      <p>{t("widget.text")}</p>
      {prepayOpen ? (
        <p>
          <Link to={paths.prepay(lang)} className="button button-small">
            {t("widget.link")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}
