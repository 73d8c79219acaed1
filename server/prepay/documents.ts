// The retainer invoice as a PDF (GET /api/retainer-invoice/{n}/pdf, issue 13 §1): the invoice documents' layout
// (server/pdf/invoice-document.ts) and their words (`invoices:pdf`), with the prepay namespace's own (title,
// the prepayment line, the bank details an unpaid bank-transfer prepayment is paid to). The owner's only
// (another user's, or one hidden from its owner, is not found); rendered once per content like invoice PDFs.
// Its issuer is the legal entity stored on it when it was issued (ADR 052), whatever the config says today.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { fail, type Result } from "#common/result";
import { formatDate, formatMoney } from "#common/format";
import { USD } from "#common/money";
import { isSiteLang, LANG_TAG } from "#common/i18n";
import { rateText } from "#common/invoices/list";
import { personName } from "#common/names";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { Scope } from "../scope";
import { bankDetailsFor, localizationTimeZone } from "../config";
import { fixedT } from "../i18n";
import { cachedPdf } from "../pdf/cached";
import { INVOICE_DOCUMENT_LAYOUT_VERSION, type InvoiceDocumentData } from "../pdf/invoice-document";
import { INVOICE_DOCUMENT_CACHE_SECONDS } from "../billing/invoices/documents";
import { entityHeading, entityOfDocument } from "../billing/invoices/entity";
import { validNumber } from "./retainer";

/** The owner's retainer invoice as a PDF. Errors: `unauthorized`, `not-found`. */
export async function retainerInvoicePdf(scope: Scope, number: string): Promise<Result<Buffer>> {
  if (scope.userId === null) return fail("unauthorized");
  if (!validNumber(number)) return fail("not-found");
  const db = scope.app.db;
  const r = await db
    .selectFrom("invoices as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .innerJoin("currencies as c", "c.iso_code", "r.currency_iso")
    .select([
      "r.number",
      "r.status",
      "r.amount",
      "r.balance",
      "r.currency_iso",
      "c.sign",
      "c.num_decimals",
      "r.lang",
      "r.localization",
      "r.legal_entity",
      "r.usd_total",
      sql<string | null>`r.exchange_rate::text`.as("exchange_rate"),
      "r.method_id",
      "r.purchase_order",
      "r.fapesp_process_number",
      "r.created_at",
      "u.first_name",
      "u.last_name",
      "u.email",
      "u.institution",
      "u.language",
      "u.hide_invoices",
    ])
    .where("r.number", "=", number)
    .where("r.kind", "=", "prepayment")
    .where("r.user_id", "=", scope.userId)
    .executeTakeFirst();
  if (!r || r.hide_invoices || r.status === "void") return fail("not-found");
  const payments = await db
    .selectFrom("invoice_payments as p")
    .leftJoin("payments as pay", "pay.id", "p.payment_id")
    .select(["p.id", "p.amount", "p.payment_method_id", "p.reference", sql<string>`p.received_on::text`.as("received_on"), "pay.sandbox"])
    .where("p.invoice_number", "=", number)
    .where("p.kind", "=", "payment")
    .orderBy("p.id")
    .execute();
  const lang = isSiteLang(r.lang) ? r.lang : isSiteLang(r.language) ? r.language : "en";
  const { localizations, config } = await scope.app.config.snapshot();
  const timeZone = localizationTimeZone(localizations, r.localization ?? "US");
  const inv = fixedT(lang, "invoices");
  const pre = fixedT(lang, "prepay");
  // The invoice documents' own words (`invoices:pdf.*`), shared with this PDF.
  const word = (k: string, o?: Record<string, unknown>) => String(inv(`pdf.${k}`, o ?? {}));
  const currency = { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals };
  const money = (n: number) => formatMoney(n, currency);
  const day = (d: string) => formatDate(`${d.slice(0, 10)}T12:00:00Z`, lang, "UTC");
  const method = (id: number) => {
    const name = String(inv(`methods.${id}`));
    return name === `methods.${id}` ? String(inv("methods.other")) : name;
  };
  const company = entityHeading(await entityOfDocument(scope.app, r.legal_entity, r.localization));
  const balance = Number(r.balance);
  const paid = payments.reduce((s, p) => s + Number(p.amount), 0);
  const bank = balance > 0 && r.method_id === PAYMENT_METHOD.bankTransfer ? bankDetailsFor(config, currency.isoCode) : null;
  // A retainer in another currency than USD prints its USD base and the rate of its day (ADR 052).
  const base =
    currency.isoCode !== "USD" && r.usd_total !== null && r.exchange_rate !== null
      ? {
          usd: formatMoney(Number(r.usd_total), USD),
          rate: rateText(r.exchange_rate, LANG_TAG[lang]),
        }
      : null;
  const customer = personName(r.first_name, r.last_name, lang);
  const data: InvoiceDocumentData = {
    lang,
    title: String(pre("pdf.title")),
    keywords: r.number,
    testMode: payments.some((p) => p.sandbox) ? word("testMode") : null,
    company,
    meta: [
      { label: String(pre("pdf.number")), value: r.number, bold: true },
      { label: word("issued"), value: formatDate(new Date(r.created_at), lang, timeZone) },
      { label: word("status"), value: String(inv(`status.${balance === 0 ? "paid" : "unpaid"}`)) },
    ],
    parties: [{ heading: word("billTo"), lines: [customer, r.institution ?? "", r.email].filter(Boolean) }],
    references: [
      ...(r.purchase_order ? [{ label: word("purchaseOrder"), value: r.purchase_order }] : []),
      ...(r.fapesp_process_number ? [{ label: word("fapespProcessNumber"), value: r.fapesp_process_number }] : []),
    ],
    table: {
      columns: [
        { header: word("description"), share: 64 },
        { header: word("quantity"), share: 12, align: "right" },
        { header: word("amount"), share: 24, align: "right" },
      ],
      rows: [[String(pre("pdf.line")), "1", money(Number(r.amount))]],
    },
    totals: [
      { label: word("total"), value: money(Number(r.amount)), bold: true },
      ...(base ? [{ label: word("usdBase"), value: base.usd }] : []),
      { label: word("paid"), value: money(paid) },
      { label: word("balance"), value: money(balance), bold: true },
    ],
    sections: [
      ...(payments.length
        ? [
            {
              heading: word("payments"),
              table: {
                columns: [
                  { header: word("date"), share: 18 },
                  { header: word("method"), share: 22 },
                  { header: word("reference"), share: 36 },
                  { header: word("amount"), share: 24, align: "right" as const },
                ],
                rows: payments.map((p) => [day(p.received_on), method(p.payment_method_id), p.reference, money(Number(p.amount))]),
              },
            },
          ]
        : []),
      ...(bank
        ? [
            {
              heading: String(pre("bank.heading")),
              paragraphs: [
                String(pre("bank.beneficiary", { value: bank.beneficiary })),
                String(pre("bank.bankName", { value: bank.bankName })),
                String(pre("bank.account", { value: bank.account })),
                String(pre("bank.swift", { value: bank.swift })),
                String(pre("bank.quote", { number: r.number })),
              ],
            },
          ]
        : []),
      {
        heading: word("notes"),
        paragraphs: [
          word("currencyNote", { currency: currency.isoCode }),
          ...(base
            ? [word("rateNote", { ...base, currency: currency.isoCode, date: formatDate(new Date(r.created_at), lang, timeZone) })]
            : []),
          String(pre("pdf.note")),
        ],
      },
    ],
    footer: word("footer", { company: company.name }),
    pageLabel: word("page", { page: "{{page}}", count: "{{count}}", interpolation: { escapeValue: false } }),
  };
  const hash = createHash("sha256").update(JSON.stringify(data)).digest("hex").slice(0, 32);
  const key = `invoice-doc:retainer:v${INVOICE_DOCUMENT_LAYOUT_VERSION}:${hash}`;
  return cachedPdf(scope.app, key, INVOICE_DOCUMENT_CACHE_SECONDS, () => scope.app.pdf.render("invoice-document", data));
}
