// The researcher's digital purchases with their invoices (issue 24 §2: every purchase has an invoice and a receipt
// like any other payment). A package shows the uses it has left; an ended or used-up one stays listed, marked so, for
// its invoice. The free Chinese trial has no invoice.
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import type { DigitalPurchaseView } from "#server/digital/types";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";

export function PurchaseList({ purchases }: { purchases: DigitalPurchaseView[] }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  if (!purchases.length) return null;
  return (
    <section className="card stack digital-purchases" aria-labelledby="digital-purchases-heading">
      <h2 id="digital-purchases-heading">{t("purchases.heading")}</h2>
      <ul className="digital-purchase-list">
        {purchases.map((p) => (
          <li key={p.identity}>
            <strong>{t(`offers.${p.availablePurchaseIdentity}`)}</strong>
            <span className="field-hint">
              {p.valid ? t("purchases.until", { date: formatDate(p.endsAt, lang) }) : t("purchases.ended")}
              {p.numberOfUsesRemaining !== null ? ` · ${t("purchases.usesLeft", { count: p.numberOfUsesRemaining })}` : ""}
            </span>
            {p.invoiceNumber ? (
              <a href={paths.api.digitalInvoicePdf(p.invoiceNumber)} target="_blank" rel="noopener">
                {t("purchases.invoice", { number: p.invoiceNumber })}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
