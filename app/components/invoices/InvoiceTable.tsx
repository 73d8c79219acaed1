// The invoice list (spec 2 §2 "Invoices"): one row per invoice with its amounts in its own currency, dates in the
// localisation's clock, and its documents (invoice PDF, statement of delivery, payment receipts, a pending boleto),
// the fapiao column where a localisation allows fapiao processing after payment, else a consult-support link.
// In the unpaid view each row has a checkbox inside one GET form: without JavaScript "Pay selected invoices"
// submits it (intent=pay: the loader sends the chosen ones on to the pay page) and "Select all" ticks the page;
// with JavaScript the banner "Selected N invoice(s) totaling …" follows the boxes and its "Pay now" links to the
// pay page directly. On a narrow screen each row is a card (app.css, "Invoices").
import { Form, Link } from "@remix-run/react";
import { useEffect, useState, type MouseEvent } from "react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import type { EveryUnpaid, InvoiceRow } from "#server/billing/invoices/list";
import type { InvoiceFilterValues } from "./InvoiceFilters";
import { FapiaoCell } from "../fapiao/FapiaoCell";
import { InvoiceDocuments, SurplusNote } from "./InvoiceDocuments";
import { UsdBase } from "./UsdBase";

export interface InvoiceListData {
  mode: "all" | "unpaid";
  values: InvoiceFilterValues;
  filtered: boolean;
  invoices: InvoiceRow[];
  pagination: { page: number; pageSize: number; total: number; pages: number };
  timeZone: string;
  fapiaoColumn: boolean;
  /** Invoice numbers ticked when the page was served (select-all, or a refused pay). */
  selected: string[];
  selectionError: string | null;
  /** Every unpaid invoice on every page, when there are more than this page shows (null otherwise). */
  everyUnpaid?: EveryUnpaid | null;
}

/** "$120 + R$300": the sum of the selection per currency, in the order the currencies appear. */
export function selectionTotal(invoices: InvoiceRow[]): string {
  const sums = new Map<string, { currency: InvoiceRow["currency"]; amount: number }>();
  for (const i of invoices) {
    const s = sums.get(i.currency.isoCode) ?? { currency: i.currency, amount: 0 };
    s.amount += i.balance;
    sums.set(i.currency.isoCode, s);
  }
  return [...sums.values()].map((s) => formatMoney(s.amount, s.currency)).join(" + ");
}

function statusKey(i: InvoiceRow): string {
  if (i.status === "void") return "void";
  if (i.pendingWriteoff) return "pendingWriteoff";
  if (i.balance === 0) return "paid";
  return i.balance < i.totalAmount ? "partlyPaid" : "unpaid";
}

export function InvoiceTable({ data }: { data: InvoiceListData }) {
  const { t } = useTranslation("invoices");
  const lang = useLang();
  const unpaidMode = data.mode === "unpaid";
  const [selected, setSelected] = useState<string[]>(data.selected);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const payable = data.invoices.filter((i) => i.unpaid);
  const chosen = data.invoices.filter((i) => selected.includes(i.invoiceNumber));
  const allChosen = payable.length > 0 && payable.every((i) => selected.includes(i.invoiceNumber));
  const toggle = (n: string, on: boolean) => setSelected((s) => (on ? [...s.filter((x) => x !== n), n] : s.filter((x) => x !== n)));
  const selectAll = (e: MouseEvent<HTMLButtonElement>) => {
    // With JavaScript the page's boxes are ticked here; without it the button asks the loader (intent=select-all).
    e.preventDefault();
    setSelected(allChosen ? [] : payable.map((i) => i.invoiceNumber));
  };
  const date = (iso: string) => formatDate(iso, lang, data.timeZone);
  const money = (n: number, i: InvoiceRow) => formatMoney(n, i.currency);
  const status = unpaidMode ? "unpaid" : undefined;

  const table = (
    <div className="invoice-table-wrap">
      <table className="invoice-table">
        <caption className="visually-hidden">{t("table.caption")}</caption>
        <thead>
          <tr>
            {unpaidMode ? <th scope="col">{t("table.select")}</th> : null}
            <th scope="col">{t("table.invoice")}</th>
            <th scope="col">{t("table.order")}</th>
            <th scope="col">{t("table.date")}</th>
            <th scope="col" className="amount">
              {t("table.total")}
            </th>
            <th scope="col" className="amount">
              {t("table.balance")}
            </th>
            <th scope="col">{t("table.documents")}</th>
            {data.fapiaoColumn ? <th scope="col">{t("table.fapiao")}</th> : null}
          </tr>
        </thead>
        <tbody>
          {data.invoices.map((i) => {
            const key = statusKey(i);
            const boxId = `invoice-select-${i.invoiceNumber}`;
            return (
              <tr key={i.invoiceNumber} className={selected.includes(i.invoiceNumber) ? "invoice-selected" : undefined}>
                {unpaidMode ? (
                  <td className="invoice-select" data-label={t("table.select")}>
                    {i.unpaid ? (
                      <div>
                        <input
                          type="checkbox"
                          id={boxId}
                          name="invoice"
                          value={i.invoiceNumber}
                          checked={selected.includes(i.invoiceNumber)}
                          onChange={(e) => toggle(i.invoiceNumber, e.currentTarget.checked)}
                        />
                        <label htmlFor={boxId} className="visually-hidden">
                          {t("selection.selectInvoice", { number: i.invoiceNumber })}
                        </label>
                      </div>
                    ) : null}
                  </td>
                ) : null}
                <th scope="row" className="invoice-number" data-label={t("table.invoice")}>
                  <div>
                    <span>{i.invoiceNumber}</span>{" "}
                    <span className={`badge invoice-status invoice-status-${key}`}>{t(`status.${key}`)}</span>
                  </div>
                </th>
                <td className="invoice-order" data-label={t("table.order")}>
                  <div>
                    <Link to={paths.orderDetails(lang, i.orderNumber)}>{i.orderNumber}</Link>
                    <span className="invoice-order-title">{i.orderTitle}</span>
                  </div>
                </td>
                <td className="invoice-date" data-label={t("table.date")}>
                  <div>
                    {date(i.createdAt)}
                    {i.unpaid && i.dueAt ? <span className="field-hint">{t("table.due", { date: date(i.dueAt) })}</span> : null}
                  </div>
                </td>
                <td className="amount" data-label={t("table.total")}>
                  <div>
                    {money(i.totalAmount, i)}
                    {/* A converted invoice shows its USD base and the rate it was issued at (ADR 052). */}
                    <UsdBase usdTotal={i.usdTotal} exchangeRate={i.exchangeRate} currencyIso={i.currency.isoCode} />
                  </div>
                </td>
                <td className="amount invoice-balance" data-label={t("table.balance")}>
                  <div>
                    {money(i.balance, i)}
                    <SurplusNote invoice={i} />
                  </div>
                </td>
                <td className="invoice-docs" data-label={t("table.documents")}>
                  <InvoiceDocuments invoice={i} payAction={!unpaidMode} />
                </td>
                {data.fapiaoColumn ? (
                  <td className="invoice-fapiao" data-label={t("table.fapiao")}>
                    {/* A fapiao asked for while paying (origin order) is shown wherever the invoice is issued. */}
                    {i.allowsFapiao || i.fapiao ? (
                      <FapiaoCell invoice={i} />
                    ) : (
                      <Link to={paths.supportSubmission(lang, i.orderNumber)}>{t("actions.consultSupport")}</Link>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );

  if (!unpaidMode) return table;
  return (
    <Form method="get" action={paths.invoices(lang, status)} className="stack invoice-selection" id="invoice-selection">
      {/* The filter and page travel with the selection, so "Select all" and a refused pay stay on this list. */}
      {(["from", "to", "orderNumber"] as const).map((k) =>
        data.values[k] ? <input key={k} type="hidden" name={k} value={data.values[k]} /> : null,
      )}
      {data.pagination.page > 1 ? <input type="hidden" name="page" value={data.pagination.page} /> : null}
      <div className={`alert ${chosen.length ? "alert-info" : "alert-neutral"} invoice-banner`} role="status" aria-live="polite">
        <p>{chosen.length ? t("selection.selected", { count: chosen.length, price: selectionTotal(chosen) }) : t("selection.none")}</p>
        {chosen.length ? (
          <Link
            className="button button-primary"
            to={paths.invoicesPay(
              lang,
              chosen.map((i) => i.invoiceNumber),
            )}
          >
            {t("selection.payNow")}
          </Link>
        ) : null}
      </div>
      {data.everyUnpaid && data.everyUnpaid.count > data.everyUnpaid.numbers.length ? (
        <p className="field-hint">
          {t("selection.payAllLimit", { count: data.everyUnpaid.numbers.length, total: data.everyUnpaid.count })}
        </p>
      ) : null}
      {data.selectionError ? (
        <p className="alert alert-danger" role="alert">
          {t(data.selectionError)}
        </p>
      ) : null}
      <div className="actions invoice-selection-actions">
        <button
          type="submit"
          name="intent"
          value={allChosen ? "clear" : "select-all"}
          className="button button-small"
          onClick={selectAll}
          disabled={!payable.length}
        >
          {t(allChosen ? "selection.clearAll" : data.pagination.pages > 1 ? "selection.selectPage" : "selection.selectAll")}
        </button>
        {/* Every page's unpaid invoices, gathered and priced by the server (a GET: works without JavaScript). */}
        {data.everyUnpaid && data.everyUnpaid.numbers.length ? (
          <button type="submit" name="intent" value="pay-all" className="button button-small button-primary" data-pay-all>
            {t("selection.payAll", {
              count: data.everyUnpaid.numbers.length,
              price: data.everyUnpaid.totals.map((x) => formatMoney(x.amount, x.currency)).join(" + "),
            })}
          </button>
        ) : null}
      </div>
      {table}
      {hydrated ? null : (
        <div className="actions">
          <button type="submit" name="intent" value="pay" className="button button-primary">
            {t("selection.paySelected")}
          </button>
        </div>
      )}
    </Form>
  );
}
