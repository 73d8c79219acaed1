// The invoice list's pages (spec 2 §9: 10 a page): links that keep the filter and drop the selection.
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { PageNav } from "#app/components/dashboard/OrderSearch";
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
  const lang = useLang();
  const to = (p: number) =>
    paths.invoices(lang, mode === "unpaid" ? "unpaid" : undefined, {
      from: values.from || undefined,
      to: values.to || undefined,
      orderNumber: values.orderNumber || undefined,
      page: p === 1 ? undefined : p,
    });
  return <PageNav ns="invoices" pagination={pagination} to={to} />;
}
