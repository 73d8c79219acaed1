// "My Order" (spec 1 §2), drawn the same way in the sidebar and in the narrow screen's collapsible copy
// above a step's actions. The layout route hands the data down as outlet context, so a step's actions
// can show it without loading anything again.
import { useOutletContext } from "@remix-run/react";
import type { OrderSummary } from "#server/order-form/summary";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";

export interface SummaryContext {
  summary: OrderSummary | null;
  timeZone: string;
}

/** Line items, discounts, total, deadline and notices. */
export function SummaryFigures({ summary, timeZone }: { summary: OrderSummary; timeZone: string }) {
  const { t } = useTranslation("order");
  const lang = useLang();
  return (
    <>
      <table className="summary-table">
        <tbody>
          {summary.lineItems.map((l) => (
            <tr key={l.serviceIdentity}>
              <th scope="row">
                {t(l.nameKey)}
                {l.quantity > 1 ? ` × ${l.quantity}` : ""}
              </th>
              <td className="amount">{formatMoney(l.listPrice, summary.currency)}</td>
            </tr>
          ))}
          {summary.discounts.map((d, i) => (
            <tr key={i} className="discount">
              <th scope="row">{d.showDescription ? t(d.descriptionKey, { code: d.code }) : t("discount")}</th>
              <td className="amount">-{formatMoney(d.appliedAmount, summary.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("total")}</th>
            <td className="amount total">{formatMoney(summary.total, summary.currency)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="deadline">
        {summary.deadline ? t("deadline", { date: formatDateTime(summary.deadline, lang, timeZone) }) : t("deadlineByQuote")}
      </p>
      {summary.notices.map((n) => (
        <p key={n} className="alert alert-warning">
          {t(`catalogue:notices.${n}`)}
        </p>
      ))}
    </>
  );
}

/**
 * The summary above a step's actions on narrow screens: a closed <details> (works without JavaScript)
 * whose line shows the total. Hidden by the stylesheet where the sidebar is beside the step.
 */
export function OrderPeek() {
  const ctx = useOutletContext<SummaryContext | undefined>();
  const { t } = useTranslation("order");
  if (!ctx?.summary) return null;
  return (
    <details className="order-peek">
      <summary>
        <span>{t("myOrder")}</span>
        <span>
          {t("total")} {formatMoney(ctx.summary.total, ctx.summary.currency)}
        </span>
      </summary>
      <div>
        <SummaryFigures summary={ctx.summary} timeZone={ctx.timeZone} />
      </div>
    </details>
  );
}
