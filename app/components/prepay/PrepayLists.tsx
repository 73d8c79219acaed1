// The prepay page's two lists (spec 2 §2 "Prepay", §9): prepayments (retainer invoices) and credits with a
// positive balance, five each with 'Show all' (?all=prepayments|credits, a plain link: no JavaScript needed).
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { PREPAY_LIST_SIZE } from "#common/prepay/limits";
import type { CreditView, PrepaymentView } from "#common/prepay/types";

interface Props {
  prepayments: PrepaymentView[];
  credits: CreditView[];
  /** Which list shows in full. */
  all: string | null;
  /** The retainer invoice being paid on this page (its Pay link is not repeated). */
  current: string | null;
  /** Prepayments can be paid here (prepay_enabled on): an unpaid one links to its payment page. */
  payable: boolean;
}

export function PrepayLists({ prepayments, credits, all, current, payable }: Props) {
  const { t } = useTranslation("prepay");
  const lang = useLang();
  const shownPrepayments = all === "prepayments" ? prepayments : prepayments.slice(0, PREPAY_LIST_SIZE);
  const shownCredits = all === "credits" ? credits : credits.slice(0, PREPAY_LIST_SIZE);
  const base = current ? paths.prepay(lang, current) : paths.prepay(lang);
  const more = (list: "prepayments" | "credits", count: number) =>
    count > PREPAY_LIST_SIZE ? (
      <p>{all === list ? <Link to={base}>{t("showFewer")}</Link> : <Link to={`${base}?all=${list}`}>{t("showAll", { count })}</Link>}</p>
    ) : null;
  return (
    <>
      <section className="card stack" aria-labelledby="prepay-list">
        <h2 id="prepay-list">{t("prepayments.title")}</h2>
        {prepayments.length === 0 ? (
          <p>{t("prepayments.empty")}</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="prepay-list">
            <table className="prepay-table">
              <thead>
                <tr>
                  <th scope="col">{t("prepayments.number")}</th>
                  <th scope="col">{t("prepayments.date")}</th>
                  <th scope="col" className="num">
                    {t("prepayments.total")}
                  </th>
                  <th scope="col" className="num">
                    {t("prepayments.available")}
                  </th>
                  <th scope="col">{t("prepayments.status")}</th>
                  <th scope="col">{t("prepayments.fapiao")}</th>
                </tr>
              </thead>
              <tbody>
                {shownPrepayments.map((p) => (
                  <tr key={p.retainerInvoiceNumber} data-retainer={p.retainerInvoiceNumber}>
                    <td>
                      <a href={p.pdfUrl} title={t("prepayments.pdf")}>
                        {p.retainerInvoiceNumber}
                      </a>
                    </td>
                    <td>{p.formattedDate}</td>
                    <td className="num">{formatMoney(p.totalAmount, p.currency)}</td>
                    <td className="num">{formatMoney(p.availablePrepaymentAmount, p.currency)}</td>
                    <td>
                      <span className={`badge prepay-status-${p.status}`}>{t(`prepayments.statuses.${p.status}`)}</span>
                      {payable && p.status === "unpaid" && p.retainerInvoiceNumber !== current ? (
                        <>
                          {" "}
                          <Link to={paths.prepay(lang, p.retainerInvoiceNumber)}>
                            {t("prepayments.pay", { amount: formatMoney(p.balance, p.currency) })}
                          </Link>
                        </>
                      ) : null}
                      {p.boletoUrl ? (
                        <>
                          {" "}
                          <a href={p.boletoUrl}>{t("prepayments.boleto")}</a>
                        </>
                      ) : null}
                    </td>
                    <td>
                      {p.fapiao ? (
                        t(`fapiaoStatus.${p.fapiao.status}`, { defaultValue: p.fapiao.status })
                      ) : p.fapiaoAvailable ? (
                        <Link to={paths.prepayFapiao(lang, p.retainerInvoiceNumber)}>{t("prepayments.requestFapiao")}</Link>
                      ) : (
                        <span aria-label={t("prepayments.noFapiao")}>--</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {more("prepayments", prepayments.length)}
      </section>
      <section className="card stack" aria-labelledby="prepay-credits">
        <h2 id="prepay-credits">{t("credits.title")}</h2>
        {credits.length === 0 ? (
          <p>{t("credits.empty")}</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="prepay-credits">
            <table className="prepay-table">
              <thead>
                <tr>
                  <th scope="col">{t("credits.reference")}</th>
                  <th scope="col">{t("credits.date")}</th>
                  <th scope="col" className="num">
                    {t("credits.total")}
                  </th>
                  <th scope="col" className="num">
                    {t("credits.balance")}
                  </th>
                  <th scope="col">{t("credits.expires")}</th>
                </tr>
              </thead>
              <tbody>
                {shownCredits.map((c) => (
                  <tr key={c.referenceNumber}>
                    <td>{c.referenceNumber}</td>
                    <td>{c.formattedDate}</td>
                    <td className="num">{formatMoney(c.totalAmount, c.currency)}</td>
                    <td className="num">{formatMoney(c.balance, c.currency)}</td>
                    <td>{c.formattedExpirationDate}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {more("credits", credits.length)}
      </section>
    </>
  );
}
