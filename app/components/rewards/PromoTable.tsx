// A table of promo-code benefits (spec 3 §3 "Promo code benefit"): code, name, discount, end date, used.
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDate } from "#common/format";

export interface PromoRowView {
  code: string;
  name: string | null;
  source: string | null;
  discount: { displayableAmount: string };
  endDate: string | null;
  used: boolean;
  highlighted: boolean;
}

/** A benefit's name: staff's, or its level's ("Silver level reward"). */
export function usePromoName() {
  const { t } = useTranslation("rewards");
  return (p: Pick<PromoRowView, "name" | "source">) => {
    if (p.name) return p.name;
    const level = p.source?.startsWith("level:") ? p.source.slice(6) : null;
    return level ? t("codes.levelName", { level: t(`levels.${level}`) }) : t("codes.promotion");
  };
}

export function PromoTable({ rows, showUsed, timeZone }: { rows: PromoRowView[]; showUsed: boolean; timeZone: string }) {
  const { t } = useTranslation("rewards");
  const lang = useLang();
  const nameOf = usePromoName();
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t("promotions.heading")}>
      <table className="promo-table stacked-table">
        <thead>
          <tr>
            <th scope="col">{t("promotions.code")}</th>
            <th scope="col">{t("promotions.name")}</th>
            <th scope="col">{t("promotions.discount")}</th>
            <th scope="col">{t("promotions.endDate")}</th>
            {showUsed ? <th scope="col">{t("promotions.used")}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.code} className={p.used ? "promo-used" : undefined}>
              <td data-label={t("promotions.code")}>
                <code className="promo-code">{p.code}</code>
                {p.highlighted ? <span className="badge">{t("promotions.featured")}</span> : null}
              </td>
              <td data-label={t("promotions.name")}>{nameOf(p)}</td>
              <td data-label={t("promotions.discount")}>{p.discount.displayableAmount}</td>
              <td data-label={t("promotions.endDate")}>{p.endDate ? formatDate(p.endDate, lang, timeZone) : t("promotions.noEnd")}</td>
              {showUsed ? <td data-label={t("promotions.used")}>{p.used ? t("coupons.yes") : t("coupons.no")}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
