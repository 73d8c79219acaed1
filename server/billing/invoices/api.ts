// The invoices API (issue 12 §4–5, spec 2 §7): the list's data and the three documents. Every call is the
// owner's: another user's invoice or payment is not found (404).
import { errorStatus, ok } from "#common/result";
import { convertMinor, USD } from "#common/money";
import { paths } from "#common/paths";
import type { Scope } from "../../scope";
import { invoiceListSchema, invoicePdfQuery } from "#common/invoices/list";
import { endpoint, reply, type EndpointTable } from "../../http/api/endpoint";
import { invoicePdf, paymentReceiptPdf, statementOfDelivery } from "./documents";
import { loadInvoices, type InvoiceRow } from "./list";
import { settlementOf } from "./settlement";
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

/**
 * The retainer invoice (prepayment) each receipt spent, by the receipt's ledger id: a prepayment spend is written
 * with the reference `prepayment:<number>:<movement>` (settlementOf), which the list's receipts do not carry.
 */
async function retainerInvoicesOf(scope: Scope, rows: InvoiceRow[]): Promise<Map<string, string>> {
  const ids = rows.flatMap((r) => r.receipts.filter((p) => p.kind === "prepayment").map((p) => p.id));
  if (!ids.length) return new Map();
  const ledger = await scope.app.db
    .selectFrom("invoice_payments")
    .select(["id", "payment_method_id", "reference"])
    .where("id", "in", ids)
    .execute();
  const out = new Map<string, string>();
  for (const l of ledger) {
    const number = settlementOf(l.payment_method_id, l.reference).number;
    if (number) out.set(String(l.id), number);
  }
  return out;
}

/**
 * An invoice of the list under spec 2 §3's names as well as the list's own (issue 22 item 4; clients of either
 * keep working): transactionDate (createdAt), usdBalance (the balance in USD cents at the rate stored at issue),
 * exchangeRate, boletoUrl (the pending boleto's PDF), receiptCode (the code the payoff call takes to pay it:
 * `additionalData.payoffReceiptCodes`, the invoice number), payments (id, amount, retainerinvoice_id: the
 * prepayment a balance spend came from) and customFields.Submission (the order number).
 */
function withSpecNames(row: InvoiceRow, retainers: Map<string, string>) {
  const rate = row.exchangeRate;
  const usdBalance =
    row.currency.isoCode === USD.isoCode
      ? row.balance
      : rate === null
        ? null
        : convertMinor(row.balance, { isoCode: row.currency.isoCode, numDecimals: row.currency.numDecimals, rate }, USD);
  return {
    ...row,
    transactionDate: row.createdAt,
    usdBalance,
    boletoUrl: row.boletoPaymentId ? paths.api.boletoPdf(row.boletoPaymentId) : null,
    receiptCode: row.invoiceNumber,
    payments: row.receipts.map((p) => ({
      id: p.id,
      amount: p.amount,
      retainerinvoice_id: retainers.get(p.id) ?? null,
      receivedOn: p.receivedOn,
      kind: p.kind,
    })),
    customFields: { Submission: row.orderNumber },
  };
}

export const invoicesApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/invoice/load",
    auth: "user",
    query: invoiceListSchema,
    summary:
      "The user's invoices (?from=&to= MM/dd/yyyy, ?orderNumber=, ?page=; 10 a page; each under spec 2 §3's names: transactionDate, balance, usdBalance, totalAmount, exchangeRate, boletoUrl, receiptCode, payments, customFields.Submission, fapiao; and usdTotal), unpaid invoices, pending payments, currency, payment methods, voucherAvailable.",
    async handler({ scope, query }) {
      const r = await loadInvoices(scope, query);
      if (!r.ok) return r;
      const retainers = await retainerInvoicesOf(scope, r.value.invoices);
      // Credits, prepayments and the credits' worth in USD (spec 2 §7); none while invoices are hidden.
      return ok({
        ...r.value,
        invoices: r.value.invoices.map((i) => withSpecNames(i, retainers)),
        ...(await balancesOfUser(scope)),
      });
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
