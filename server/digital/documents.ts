// A digital purchase's invoice as a PDF (GET /api/digital-invoice/{number}/pdf, issue 24, ADR 073): the invoice
// documents' layout (server/pdf/invoice-document.ts) and words (`invoices:pdf`), one line naming the offer
// (`digital:offers.<identity>`), and the payments received on it (the receipt: provider, reference, date). The
// owner's only; a void (declined) one is not found. Its issuer is the legal entity stored at issue (ADR 052).
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { fail, type Result } from "#common/result";
import { formatDate, formatMoney } from "#common/format";
import { USD } from "#common/money";
import { isSiteLang, LANG_TAG } from "#common/i18n";
import { rateText } from "#common/invoices/list";
import { personName } from "#common/names";
import type { Scope } from "../scope";
import { localizationTimeZone } from "../config";
import { fixedT } from "../i18n";
import { cachedPdf } from "../pdf/cached";
import { INVOICE_DOCUMENT_LAYOUT_VERSION, type InvoiceDocumentData } from "../pdf/invoice-document";
import { INVOICE_DOCUMENT_CACHE_SECONDS } from "../billing/invoices/documents";
import { entityHeading, entityOfDocument } from "../billing/invoices/entity";

const NUMBER = /^D[A-Z]{2}\d{1,12}$/;

/** The owner's digital invoice as a PDF. Errors: `sign-in-required`, `not-found`. */
export async function digitalInvoicePdf(scope: Scope, number: string): Promise<Result<Buffer>> {
  if (scope.userId === null) return fail("sign-in-required");
  if (!NUMBER.test(number)) return fail("not-found");
  const db = scope.app.db;
  const r = await db
    .selectFrom("invoices as r")
    .innerJoin("digital_purchases as d", "d.invoice_number", "r.number")
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
      "r.purchase_order",
      "r.fapesp_process_number",
      "r.created_at",
      "d.offer_identity",
      "d.ends_at",
      "u.first_name",
      "u.last_name",
      "u.email",
      "u.institution",
      "u.language",
    ])
    .where("r.number", "=", number)
    .where("r.kind", "=", "digital")
    .where("r.user_id", "=", scope.userId)
    .executeTakeFirst();
  if (!r || r.status === "void") return fail("not-found");
  const payments = await db
    .selectFrom("invoice_payments as p")
    .leftJoin("payments as pay", "pay.id", "p.payment_id")
    .select(["p.id", "p.amount", "p.payment_method_id", "p.reference", sql<string>`p.received_on::text`.as("received_on"), "pay.sandbox"])
    .where("p.invoice_number", "=", number)
    .where("p.kind", "=", "payment")
    .orderBy("p.id")
    .execute();
  const lang = isSiteLang(r.lang) ? r.lang : isSiteLang(r.language) ? r.language : "en";
  const { localizations } = await scope.app.config.snapshot();
  const timeZone = localizationTimeZone(localizations, r.localization ?? "US");
  const inv = fixedT(lang, "invoices");
  const dig = fixedT(lang, "digital");
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
  const base =
    currency.isoCode !== "USD" && r.usd_total !== null && r.exchange_rate !== null
      ? { usd: formatMoney(Number(r.usd_total), USD), rate: rateText(r.exchange_rate, LANG_TAG[lang]) }
      : null;
  const offerName = String(dig(`offers.${r.offer_identity}`));
  const data: InvoiceDocumentData = {
    lang,
    title: word("invoiceTitle"),
    keywords: r.number,
    testMode: payments.some((p) => p.sandbox) ? word("testMode") : null,
    company,
    meta: [
      { label: word("invoiceNumber"), value: r.number, bold: true },
      { label: word("issued"), value: formatDate(new Date(r.created_at), lang, timeZone) },
      { label: word("status"), value: String(inv(`status.${balance === 0 ? "paid" : "unpaid"}`)) },
    ],
    parties: [
      { heading: word("billTo"), lines: [personName(r.first_name, r.last_name, lang), r.institution ?? "", r.email].filter(Boolean) },
    ],
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
      rows: [[offerName, "1", money(Number(r.amount))]],
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
      {
        heading: word("notes"),
        paragraphs: [
          word("currencyNote", { currency: currency.isoCode }),
          ...(base
            ? [word("rateNote", { ...base, currency: currency.isoCode, date: formatDate(new Date(r.created_at), lang, timeZone) })]
            : []),
        ],
      },
    ],
    footer: word("footer", { company: company.name }),
    pageLabel: word("page", { page: "{{page}}", count: "{{count}}", interpolation: { escapeValue: false } }),
  };
  const hash = createHash("sha256").update(JSON.stringify(data)).digest("hex").slice(0, 32);
  const key = `invoice-doc:digital:v${INVOICE_DOCUMENT_LAYOUT_VERSION}:${hash}`;
  return cachedPdf(scope.app, key, INVOICE_DOCUMENT_CACHE_SECONDS, () => scope.app.pdf.render("invoice-document", data));
}
