// The invoices API (issue 12 §4–5, spec 2 §7): the list's data and the three documents. Every call is the
// owner's: another user's invoice or payment is not found (404).
import { errorStatus, ok } from "#common/result";
import { invoiceListSchema, invoicePdfQuery } from "#common/invoices/list";
import { endpoint, reply, type EndpointTable } from "../../http/api/endpoint";
import { invoicePdf, paymentReceiptPdf, statementOfDelivery } from "./documents";
import { loadInvoices } from "./list";
import { balancesOfUser } from "../ledger/view";

/** A document as the browser downloads it: never cached by a shared cache, opened by its name. */
function pdfResponse(pdf: Buffer, name: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export const invoicesApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/invoice/load",
    auth: "user",
    query: invoiceListSchema,
    summary:
      "The user's invoices (?from=&to= MM/dd/yyyy, ?orderNumber=, ?page=; 10 a page; each with usdTotal and exchangeRate), unpaid invoices, pending payments, currency, payment methods, voucherAvailable.",
    async handler({ scope, query }) {
      const r = await loadInvoices(scope, query);
      if (!r.ok) return r;
      // Credits, prepayments and the credits' worth in USD (spec 2 §7); none while invoices are hidden.
      return ok({ ...r.value, ...(await balancesOfUser(scope)) });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/invoice/:invoiceNumber/pdf",
    auth: "user",
    query: invoicePdfQuery,
    summary: "The invoice as a PDF, issued by the entity stored on it (?localization= picks only the language it is printed in).",
    async handler({ scope, params, query }) {
      const r = await invoicePdf(scope, params.invoiceNumber, { localization: query.localization });
      return r.ok ? pdfResponse(r.value, `${params.invoiceNumber}.pdf`) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/invoice/:invoiceNumber/statement-of-delivery",
    auth: "user",
    summary: "The statement of delivery as a PDF once the order is delivered; before that 409 {status: 'pending'}.",
    async handler({ scope, params }) {
      const r = await statementOfDelivery(scope, params.invoiceNumber);
      if (!r.ok) return r;
      if (r.value.status === "pending")
        return reply(
          { error: "statement-of-delivery-pending", statementOfDelivery: { status: "pending" } },
          { status: errorStatus("statement-of-delivery-pending") },
        );
      return pdfResponse(r.value.pdf, `${params.invoiceNumber}-statement-of-delivery.pdf`);
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/payment/:id/pdf",
    auth: "user",
    summary: "The receipt of one payment of an invoice (id of the ledger row) as a PDF.",
    async handler({ scope, params }) {
      const r = await paymentReceiptPdf(scope, params.id);
      return r.ok ? pdfResponse(r.value, `receipt-${params.id}.pdf`) : r;
    },
  }),
];
