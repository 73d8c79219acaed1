// The dashboard's search form and page links (spec 2 §2): order number, title, from and to dates (MM/dd/yyyy),
// Search and Clear. The form is a GET to /researcher, whose loader sends a valid search on to the path form
// (/researcher/index/orders/{xid}/{orderTitle}/{from}/{to}/1, 303) and answers a bad one with the form and its
// errors (400): no JavaScript needed, and nothing changes on the server.
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

export interface FilterValues {
  xid: string;
  orderTitle: string;
  from: string;
  to: string;
}

const FIELDS = [
  { name: "xid", label: "search.xid", max: 40 },
  { name: "orderTitle", label: "search.orderTitle", max: 200 },
  { name: "from", label: "search.from", max: 10, date: true },
  { name: "to", label: "search.to", max: 10, date: true },
] as const;

export function OrderSearch({ values, fieldErrors }: { values: FilterValues; fieldErrors: Record<string, string[]> | null }) {
  const { t } = useTranslation("dashboard");
  const lang = useLang();
  return (
    <Form method="get" action={paths.researcher(lang)} className="card order-search" aria-labelledby="order-search-title">
      <h2 id="order-search-title" className="visually-hidden">
        {t("search.legend")}
      </h2>
      <div className="order-search-fields">
        {FIELDS.map((f) => {
          const error = fieldErrors?.[f.name]?.[0];
          const id = `search-${f.name}`;
          const described = ["date" in f ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
          return (
            <div key={f.name} className={`field${error ? " field-invalid" : ""}`}>
              <label htmlFor={id}>{t(f.label)}</label>
              <input
                id={id}
                name={f.name}
                type="text"
                defaultValue={values[f.name]}
                maxLength={f.max}
                inputMode={"date" in f ? "numeric" : undefined}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={described || undefined}
              />
              {"date" in f ? (
                <p className="field-hint" id={`${id}-hint`}>
                  {t("search.dateHint")}
                </p>
              ) : null}
              {error ? (
                <p className="field-error" id={`${id}-error`} role="alert">
                  {t(error)}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary">
          {t("search.submit")}
        </button>
        <Link className="button" to={paths.researcher(lang)}>
          {t("search.clear")}
        </Link>
      </div>
    </Form>
  );
}

/** The pages around the current one (first and last always), with gaps as null. */
export function pageWindow(page: number, pages: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

export function Pagination({ filter, pagination }: { filter: FilterValues; pagination: { page: number; pages: number; total: number } }) {
  const lang = useLang();
  return <PageNav ns="dashboard" pagination={pagination} to={(p) => paths.researcherOrders(lang, { ...filter, page: p })} />;
}

/**
 * Numbered page links of a list (the dashboard's orders, the invoices): `to` builds a page's address (filters kept),
 * `ns` holds the list's `pagination.*` texts. Plain links: works without JavaScript.
 */
export function PageNav({
  ns,
  pagination,
  to,
}: {
  ns: "dashboard" | "invoices";
  pagination: { page: number; pages: number; total: number };
  to: (page: number) => string;
}) {
  const { t } = useTranslation(ns);
  const { page, pages, total } = pagination;
  if (total === 0 || (pages <= 1 && page === 1)) return null;
  return (
    <nav className="order-pagination" aria-label={t("pagination.label")}>
      <p className="field-hint">{t("pagination.status", { page, pages, total })}</p>
      <ul>
        {page > 1 ? (
          <li>
            <Link to={to(Math.min(page - 1, pages))} rel="prev">
              ‹ <span className="visually-hidden">{t("pagination.previous")}</span>
            </Link>
          </li>
        ) : null}
        {pageWindow(page, pages).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>{p === page ? <span aria-current="page">{p}</span> : <Link to={to(p)}>{p}</Link>}</li>
          ),
        )}
        {page < pages ? (
          <li>
            <Link to={to(page + 1)} rel="next">
              <span className="visually-hidden">{t("pagination.next")}</span> ›
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
