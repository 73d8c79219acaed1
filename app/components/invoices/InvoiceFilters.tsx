// The invoice list's filter (spec 2 §2 "Invoices"): from and to dates (MM/dd/yyyy) and the order number, with
// Search and Reset. A GET form to the list itself: no JavaScript needed, nothing changes on the server, and a new
// search starts at page 1 with no invoice selected (spec 2 §4: the selection is cleared when filters change).
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { INVOICE_ORDER_NUMBER_MAX } from "#common/invoices/constants";

export interface InvoiceFilterValues {
  from: string;
  to: string;
  orderNumber: string;
}

const FIELDS = [
  { name: "from", label: "filters.from", max: 10, date: true },
  { name: "to", label: "filters.to", max: 10, date: true },
  { name: "orderNumber", label: "filters.orderNumber", max: INVOICE_ORDER_NUMBER_MAX, date: false },
] as const;

export function InvoiceFilters({
  mode,
  values,
  fieldErrors,
}: {
  mode: "all" | "unpaid";
  values: InvoiceFilterValues;
  fieldErrors: Record<string, string[] | null> | null;
}) {
  const { t } = useTranslation("invoices");
  const lang = useLang();
  const action = paths.invoices(lang, mode === "unpaid" ? "unpaid" : undefined);
  return (
    <Form method="get" action={action} className="card invoice-filters" aria-labelledby="invoice-filters-title">
      <h2 id="invoice-filters-title" className="visually-hidden">
        {t("filters.legend")}
      </h2>
      <div className="invoice-filter-fields">
        {FIELDS.map((f) => {
          const error = fieldErrors?.[f.name]?.[0];
          const id = `invoice-filter-${f.name}`;
          const described = [f.date ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
          return (
            <div key={f.name} className={`field${error ? " field-invalid" : ""}`}>
              <label htmlFor={id}>{t(f.label)}</label>
              <input
                id={id}
                name={f.name}
                type="text"
                defaultValue={values[f.name]}
                maxLength={f.max}
                inputMode={f.date ? "numeric" : undefined}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={described || undefined}
              />
              {f.date ? (
                <p className="field-hint" id={`${id}-hint`}>
                  {t("filters.dateHint")}
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
        <div className="actions invoice-filter-actions">
          <button type="submit" className="button button-primary">
            {t("filters.submit")}
          </button>
          <Link className="button" to={action}>
            {t("filters.reset")}
          </Link>
        </div>
      </div>
    </Form>
  );
}
