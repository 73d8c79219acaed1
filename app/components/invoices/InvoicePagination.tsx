// The invoice list's pages (spec 2 §9: 10 a page): links that keep the filter and drop the selection.
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { pageWindow } from "#app/components/dashboard/OrderSearch";
import type { InvoiceFilterValues } from "./InvoiceFilters";

export function InvoicePagination({
  mode,
  values,
  pagination,
}: {
  mode: "all" | "unpaid";
  values: InvoiceFilterValues;
  pagination: { page: number; pages: number; total: number };
}) {
  const { t } = useTranslation("invoices");
  const lang = useLang();
  const { page, pages, total } = pagination;
  if (total === 0 || (pages <= 1 && page === 1)) return null;
  const to = (p: number) =>
    paths.invoices(lang, mode === "unpaid" ? "unpaid" : undefined, {
      from: values.from || undefined,
      to: values.to || undefined,
      orderNumber: values.orderNumber || undefined,
      page: p === 1 ? undefined : p,
    });
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
