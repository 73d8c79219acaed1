import { Form, Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseFields } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { PAYMENT_STATUSES, STAFF_METHOD_IDS, staffPaymentSearchSchema, type StaffPaymentSearch } from "#common/staff/payments";
import { searchStaffPayments } from "#server/staff/payments";

export const handle = { i18n: ["staffpay", "staffops"] };
export const meta = titleMeta;

// /staff/payments: every researcher's payments by e-mail, order, invoice, status and method, newest first (issue 12 §8).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "staffpay");
  const params = new URL(request.url).searchParams;
  const query = Object.fromEntries([...params.entries()].filter(([k]) => k !== "page"));
  const base = { title: t("payments.title"), query };
  const submission = parseFields<StaffPaymentSearch>(params, staffPaymentSearchSchema);
  const r = submission.status === "success" ? await searchStaffPayments(scope, submission.value) : null;
  if (!r?.ok) {
    const data = { ...base, payments: [], pagination: null, fieldErrors: r?.fieldErrors ?? { email: "staffpay:errors.bad-form" } };
    return Response.json(data, { status: r ? errorStatus(r.error) : 400 }) as unknown as typeof data;
  }
  return { ...base, ...r.value, fieldErrors: {} as Record<string, string> };
}

export default function StaffPayments() {
  const { query, payments, pagination, fieldErrors } = useLoaderData<typeof loader>();
  const { t } = useTranslation("staffpay");
  const lang = useLang();
  const error = (name: string) =>
    fieldErrors[name] ? (
      <p className="field-error" id={`sp-${name}-error`}>
        {t(fieldErrors[name])}
      </p>
    ) : null;
  const field = (name: string, label: string) => (
    <div className={`field${fieldErrors[name] ? " field-invalid" : ""}`}>
      <label htmlFor={`sp-${name}`}>{label}</label>
      <input
        id={`sp-${name}`}
        name={name}
        type="search"
        defaultValue={query[name] ?? ""}
        aria-invalid={fieldErrors[name] ? true : undefined}
        aria-describedby={fieldErrors[name] ? `sp-${name}-error` : undefined}
      />
      {error(name)}
    </div>
  );
  const pages = pagination ? Math.max(1, Math.ceil(pagination.total / pagination.pageSize)) : 1;
  return (
    <div className="stack">
      <div className="actions staff-heading">
        <h1>{t("payments.title")}</h1>
        <Link className="button" to={paths.staffVouchers(lang)}>
          {t("vouchers.title")}
        </Link>
      </div>
      <Form method="get" className="card stack" aria-label={t("payments.searchLabel")}>
        <div className="field-row">
          {field("email", t("payments.email"))}
          {field("order", t("payments.order"))}
          {field("invoice", t("payments.invoice"))}
        </div>
        <div className="field-row">
          <div className={`field${fieldErrors.status ? " field-invalid" : ""}`}>
            <label htmlFor="sp-status">{t("payments.status")}</label>
            <select id="sp-status" name="status" defaultValue={query.status ?? ""}>
              <option value="">{t("payments.any")}</option>
              {PAYMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`statuses.${s}`)}
                </option>
              ))}
            </select>
            {error("status")}
          </div>
          <div className={`field${fieldErrors.method ? " field-invalid" : ""}`}>
            <label htmlFor="sp-method">{t("payments.method")}</label>
            <select id="sp-method" name="method" defaultValue={query.method ?? ""}>
              <option value="">{t("payments.any")}</option>
              {STAFF_METHOD_IDS.map((m) => (
                <option key={m} value={m}>
                  {t(`methods.${m}`)}
                </option>
              ))}
            </select>
            {error("method")}
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary">
            {t("payments.search")}
          </button>
          <Link to={paths.staffPayments(lang)}>{t("payments.clear")}</Link>
        </div>
      </Form>
      {pagination ? <p role="status">{t("payments.count", { count: pagination.total })}</p> : null}
      {payments.length ? (
        // On a narrow screen each payment is a card, its cells named by their column (data-label): amount and status
        // stay in view without scrolling sideways (app.css, "staff payments").
        <div className="table-scroll staff-payments-wrap" tabIndex={0} role="region" aria-label={t("payments.title")}>
          <table className="staff-payments-table">
            <thead>
              <tr>
                <th>{t("payments.created")}</th>
                <th>{t("payments.researcher")}</th>
                <th>{t("payments.order")}</th>
                <th>{t("payments.method")}</th>
                <th>{t("payments.status")}</th>
                <th className="amount">{t("payments.amount")}</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id}>
                  <td data-label={t("payments.created")}>
                    <Link to={paths.staffPayment(lang, p.id)}>{formatDateTime(p.createdAt, lang)}</Link>
                  </td>
                  <td className="break" data-label={t("payments.researcher")}>
                    {p.researcher.name}
                    <br />
                    <span className="field-hint">{p.researcher.email}</span>
                  </td>
                  <td data-label={t("payments.order")}>
                    {p.orderNumber ? <Link to={paths.staffOrder(lang, p.orderNumber)}>{p.orderNumber}</Link> : "—"}
                    {p.invoiceNumbers.map((n) => (
                      <span key={n}>
                        <br />
                        <Link to={paths.staffInvoice(lang, n)}>{n}</Link>
                      </span>
                    ))}
                  </td>
                  <td data-label={t("payments.method")}>
                    {t(`methods.${p.methodId}`, { defaultValue: String(p.methodId) })}
                    {p.sandbox ? <span className="badge">{t("payments.sandbox")}</span> : null}
                  </td>
                  <td className="staff-payment-status" data-label={t("payments.status")}>
                    <span className="badge">{t(`statuses.${p.status}`)}</span>
                  </td>
                  <td className="amount staff-payment-amount" data-label={t("payments.amount")}>
                    {formatMoney(p.amount, p.currency)}
                    {p.refundedAmount > 0 ? (
                      <>
                        <br />
                        <span className="field-hint">{t("payments.refunded", { amount: formatMoney(p.refundedAmount, p.currency) })}</span>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : pagination ? (
        <p>{t("payments.none")}</p>
      ) : null}
      {pagination && pages > 1 ? (
        <nav className="actions" aria-label={t("payments.pages")}>
          {pagination.page > 1 ? (
            <Link to={paths.staffPayments(lang, { ...query, page: String(pagination.page - 1) })}>← {t("payments.previous")}</Link>
          ) : null}
          <span>{t("payments.page", { page: pagination.page, pages })}</span>
          {pagination.page < pages ? (
            <Link to={paths.staffPayments(lang, { ...query, page: String(pagination.page + 1) })}>{t("payments.next")} →</Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
