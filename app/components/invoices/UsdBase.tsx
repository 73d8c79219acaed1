// "$150.00 (1 USD = 5,6 BRL)": a converted amount's USD base and the rate it was issued at (ADR 052), worded the
// same on the invoice list, the pay page and the staff payment page. Nothing for USD or when none is stored.
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatMoney, USD } from "#common/money";
import { rateText } from "#common/invoices/text";
import { LANG_TAG } from "#common/i18n";

export function UsdBase({
  usdTotal,
  exchangeRate,
  currencyIso,
  className = "field-hint invoice-usd-base",
}: {
  usdTotal: number | null;
  exchangeRate: string | null;
  currencyIso: string;
  className?: string;
}) {
  const { t } = useTranslation("invoices");
  const lang = useLang();
  if (currencyIso === "USD" || usdTotal === null || exchangeRate === null) return null;
  return (
    <span className={className}>
      {t("table.usdBase", { usd: formatMoney(usdTotal, USD), rate: rateText(exchangeRate, LANG_TAG[lang]), currency: currencyIso })}
    </span>
  );
}
