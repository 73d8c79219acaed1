import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseFields } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
// The schema apart from the helpers the page uses: only the loader reads it, so it stays out of the browser's bundle.
import { invoiceListSchema, type InvoiceListQuery } from "#common/invoices/list";
import { INVOICE_FILTER_FIELDS, INVOICE_NUMBER } from "#common/invoices/constants";
import { filterDateOfPage } from "#common/invoices/text";
import { everyUnpaidInvoice, listInvoices, payableSelection } from "#server/billing/invoices/list";
import { InvoiceFilters, type InvoiceFilterValues } from "#app/components/invoices/InvoiceFilters";
import { InvoiceTable, type InvoiceListData } from "#app/components/invoices/InvoiceTable";
import { InvoicePagination } from "#app/components/invoices/InvoicePagination";
import { fapiaoNoticeKey } from "#common/fapiao/notice";

export const meta = titleMeta;
export const handle = { i18n: ["invoices", "fapiao"] };

/** At most this many invoice numbers are read from one selection (a page's worth, several times over). */
const SELECTION_MAX = 50;

// /researcher/invoices and /researcher/invoices/{status} (spec 2 §2 "Invoices"): the history, 10 a page, filtered
// by a GET form (from, to, orderNumber); 'unpaid' lists what can be paid, with checkboxes. The selection is a GET
// form too: `intent=pay` sends the chosen invoices on to the pay page (303), `intent=select-all` ticks the page's
// invoices, `intent=pay-all` sends every unpaid invoice of every page (the filter kept) on to the pay page.
// Nothing here changes the server, so every step works without JavaScript.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  if (params.status !== undefined && params.status !== "unpaid") throw new Response("Not Found", { status: 404 });
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "invoices");
  const url = new URL(request.url);
  const q = url.searchParams;
  const chosen = q
    .getAll("invoice")
    .filter((n) => INVOICE_NUMBER.test(n))
    .slice(0, SELECTION_MAX);
  const unpaidOnly = params.status === "unpaid";
  let selectionError: string | null = null;
  if (unpaidOnly && q.get("intent") === "pay") {
    const r = await payableSelection(scope, chosen);
    if (r.ok) throw redirect(paths.invoicesPay(scope.lang, r.value), { status: 303 });
    selectionError = r.fieldErrors?.invoice ?? "invoices:errors.selection-required";
  }
  const values: InvoiceFilterValues = { from: q.get("from") ?? "", to: q.get("to") ?? "", orderNumber: q.get("orderNumber") ?? "" };
  // The dates are typed in the page's language's order (DD/MM/AAAA on /br); the query reads MM/dd/yyyy.
  const typed = { ...values, from: filterDateOfPage(values.from, scope.lang), to: filterDateOfPage(values.to, scope.lang) };
  const fields = Object.fromEntries([...Object.entries(typed), ["page", q.get("page") ?? ""]].filter(([, v]) => v !== ""));
  const submission = parseFields<InvoiceListQuery>(fields, invoiceListSchema);
  const fieldErrors = submission.status === "success" ? null : (submission.error as Record<string, string[] | null>);
  const query: InvoiceListQuery = submission.status === "success" ? submission.value : { page: 1 };
  // Every unpaid invoice on every page (issue 21 defect 11b): the server gathers them, the pay page prices them.
  if (unpaidOnly && q.get("intent") === "pay-all" && !fieldErrors) {
    const every = await everyUnpaidInvoice(scope, query);
    if (every.numbers.length) throw redirect(paths.invoicesPay(scope.lang, every.numbers), { status: 303 });
    selectionError = "invoices:errors.selection-required";
  }
  const r = await listInvoices(scope, { ...query, unpaidOnly });
  if (!r.ok) throw new Response("Bad Request", { status: 400 });
  // Offered when the unpaid invoices fill more than this page: "Pay all 26 unpaid invoices".
  const everyUnpaid =
    unpaidOnly && !fieldErrors && r.value.pagination.total > r.value.invoices.length ? await everyUnpaidInvoice(scope, query) : null;
  const invoices = fieldErrors ? [] : r.value.invoices;
  const intent = q.get("intent");
  const selected =
    intent === "select-all"
      ? invoices.filter((i) => i.unpaid).map((i) => i.invoiceNumber)
      : intent === "clear"
        ? []
        : chosen.filter((n) => invoices.some((i) => i.invoiceNumber === n));
  const data: InvoiceListData & {
    title: string;
    values: InvoiceFilterValues;
    fieldErrors: typeof fieldErrors;
    message: string | null;
    fapiaoNotice: string | null;
  } = {
    title: t(unpaidOnly ? "unpaidHeading" : "title"),
    mode: unpaidOnly ? "unpaid" : "all",
    values,
    fieldErrors,
    filtered: INVOICE_FILTER_FIELDS.some((k) => values[k] !== ""),
    invoices,
    pagination: r.value.pagination,
    timeZone: r.value.timeZone,
    fapiaoColumn: r.value.fapiaoColumn,
    selected,
    selectionError,
    everyUnpaid,
    // The landing of a payment (researcher.invoices.unpaid.$type.tsx) comes back with ?payment=success|error.
    message: q.get("payment") === "success" ? "landing.success" : q.get("payment") === "error" ? "landing.error" : null,
    // Back from the fapiao page (issue 13 §4): 'fapiao-creation-success-type-{type}' or the cancellation's.
    fapiaoNotice: fapiaoNoticeKey(q.get("fapiao")),
  };
  const status = fieldErrors || selectionError ? 400 : 200;
  return Response.json(data, { status, headers: { "Cache-Control": "private, no-store" } });
}

type LoaderData = ReturnType<typeof useInvoiceData>;
function useInvoiceData() {
  return useLoaderData() as InvoiceListData & {
    title: string;
    values: InvoiceFilterValues;
    fieldErrors: Record<string, string[] | null> | null;
    message: string | null;
    fapiaoNotice: string | null;
  };
}

export default function InvoicesPage() {
  const data: LoaderData = useInvoiceData();
  const { t } = useTranslation("invoices");
  const lang = useLang();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname.startsWith(paths.invoices(lang));
  const unpaid = data.mode === "unpaid";
  return (
    <div className="stack invoices-page">
      <div className="invoices-heading">
        <h1>{t(unpaid ? "unpaidHeading" : "heading")}</h1>
        <p className="field-hint">{t("intro")}</p>
      </div>
      {data.message ? (
        <p
          className={`alert ${data.message === "landing.success" ? "alert-success" : "alert-danger"}`}
          role={data.message === "landing.success" ? "status" : "alert"}
        >
          {t(data.message)}
        </p>
      ) : null}
      {data.fapiaoNotice ? (
        <p className="alert alert-success" role="status">
          {t(data.fapiaoNotice)}
        </p>
      ) : null}
      <nav className="invoice-tabs" aria-label={t("tabs.label")}>
        <a href={paths.invoices(lang)} aria-current={unpaid ? undefined : "page"}>
          {t("tabs.all")}
        </a>
        <a href={paths.invoices(lang, "unpaid")} aria-current={unpaid ? "page" : undefined}>
          {t("tabs.unpaid")}
        </a>
      </nav>
      {/* Keyed by the filter: after a client-side navigation the fields show the new filter, not the typed text. */}
      <InvoiceFilters key={JSON.stringify(data.values)} mode={data.mode} values={data.values} fieldErrors={data.fieldErrors} />
      {loading ? (
        <p className="alert alert-info" role="status">
          <span className="spinner" aria-hidden="true" /> {t("loading")}
        </p>
      ) : null}
      {data.fieldErrors ? null : data.invoices.length ? (
        // Keyed by the list shown: a new filter or page starts with the selection the address carries (cleared).
        <InvoiceTable key={`${data.mode}:${JSON.stringify(data.values)}:${data.pagination.page}:${data.selected.join(",")}`} data={data} />
      ) : (
        <div className="card invoices-empty">
          <p>{t(data.filtered ? "noMatch" : unpaid ? "emptyUnpaid" : "empty")}</p>
          {data.filtered || unpaid ? (
            <p>
              <a href={paths.invoices(lang)}>{t("showAll")}</a>
            </p>
          ) : null}
        </div>
      )}
      {data.fieldErrors ? null : <InvoicePagination mode={data.mode} values={data.values} pagination={data.pagination} />}
    </div>
  );
}
