import { Form, Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseFields } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { ORDER_STATUSES } from "#common/orders/status";
import { staffOrderSearchSchema, type StaffOrderSearch } from "#common/staff/console";
import { searchStaffOrders } from "#server/staff/orders";

export const handle = { i18n: ["staffops", "orders"] };
export const meta = titleMeta;

// /staff/orders: every researcher's orders, by number, title, e-mail, status and date (issue 11 §2).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "staffops");
  const params = new URL(request.url).searchParams;
  const submission = parseFields<StaffOrderSearch>(params, staffOrderSearchSchema);
  const query = Object.fromEntries([...params.entries()].filter(([k]) => k !== "page"));
  const base = { title: t("orders.title"), query };
  if (submission.status !== "success") {
    const data = {
      ...base,
      orders: [],
      pagination: null,
      fieldErrors: { status: "staffops:errors.invalid-status" } as Record<string, string>,
    };
    return Response.json(data, { status: 400 }) as unknown as typeof data;
  }
  const r = await searchStaffOrders(scope, submission.value);
  if (!r.ok) {
    const data = { ...base, orders: [], pagination: null, fieldErrors: r.fieldErrors };
    return Response.json(data, { status: errorStatus(r.error) }) as unknown as typeof data;
  }
  return { ...base, ...r.value, fieldErrors: {} as Record<string, string> };
}

export default function StaffOrders() {
  const { query, orders, pagination, fieldErrors } = useLoaderData<typeof loader>();
  const { t } = useTranslation("staffops");
  const lang = useLang();
  const field = (name: string, type: string, label: string) => (
    <div className={`field${fieldErrors[name] ? " field-invalid" : ""}`}>
      <label htmlFor={`so-${name}`}>{label}</label>
      <input
        id={`so-${name}`}
        name={name}
        type={type}
        defaultValue={query[name] ?? ""}
        aria-invalid={fieldErrors[name] ? true : undefined}
        aria-describedby={fieldErrors[name] ? `so-${name}-error` : undefined}
      />
      {fieldErrors[name] ? (
        <p className="field-error" id={`so-${name}-error`}>
          {t(fieldErrors[name])}
        </p>
      ) : null}
    </div>
  );
  const pages = pagination ? Math.max(1, Math.ceil(pagination.total / pagination.pageSize)) : 1;
  return (
    <div className="stack">
      <div className="actions staff-heading">
        <h1>{t("orders.title")}</h1>
        <Link className="button button-primary" to={paths.staffOrderNew(lang)}>
          {t("orders.new")}
        </Link>
      </div>
      <Form method="get" className="card stack" aria-label={t("orders.searchLabel")}>
        <div className="field-row">
          {field("number", "search", t("orders.number"))}
          {field("title", "search", t("orders.orderTitle"))}
          {field("email", "search", t("orders.email"))}
        </div>
        <div className="field-row">
          <div className={`field${fieldErrors.status ? " field-invalid" : ""}`}>
            <label htmlFor="so-status">{t("orders.status")}</label>
            <select id="so-status" name="status" defaultValue={query.status ?? ""}>
              <option value="">{t("orders.anyStatus")}</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`statuses.${s}`)}
                </option>
              ))}
            </select>
            {fieldErrors.status ? <p className="field-error">{t(fieldErrors.status)}</p> : null}
          </div>
          {field("from", "date", t("orders.from"))}
          {field("to", "date", t("orders.to"))}
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary">
            {t("orders.search")}
          </button>
          <Link to={paths.staffOrders(lang)}>{t("orders.clear")}</Link>
        </div>
      </Form>
      {pagination ? <p role="status">{t("orders.count", { count: pagination.total })}</p> : null}
      {orders.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("orders.title")}>
          <table>
            <thead>
              <tr>
                <th>{t("orders.number")}</th>
                <th>{t("orders.orderTitle")}</th>
                <th>{t("orders.researcher")}</th>
                <th>{t("orders.status")}</th>
                <th>{t("orders.created")}</th>
                <th className="amount">{t("orders.total")}</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.externalId}>
                  <td>
                    <Link to={paths.staffOrder(lang, o.externalId)}>{o.externalId}</Link>
                  </td>
                  <td>{o.title}</td>
                  <td>
                    {o.researcher.name}
                    <br />
                    <span className="field-hint">{o.researcher.email}</span>
                  </td>
                  <td>
                    <span className="badge">{t(`statuses.${o.status}`)}</span>
                    {o.adminCreated ? <span className="badge">{t("orders.admin")}</span> : null}
                  </td>
                  <td>{formatDate(o.createdAt, lang)}</td>
                  <td className="amount">
                    {formatMoney(o.total, o.currency)}
                    <br />
                    <span className="field-hint">{o.paid ? t("order.paid") : t("order.unpaid")}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pagination && pages > 1 ? (
        <nav className="actions" aria-label={t("orders.pages")}>
          {pagination.page > 1 ? (
            <Link to={paths.staffOrders(lang, { ...query, page: String(pagination.page - 1) })}>← {t("orders.previous")}</Link>
          ) : null}
          <span>{t("orders.page", { page: pagination.page, pages })}</span>
          {pagination.page < pages ? (
            <Link to={paths.staffOrders(lang, { ...query, page: String(pagination.page + 1) })}>{t("orders.next")} →</Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
