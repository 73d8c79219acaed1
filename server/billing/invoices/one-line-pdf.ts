// The PDF of an invoice that is not an order's — one line, the payments received on it (its receipt) and the
// notes — for the kinds the areas above issue: a prepayment's retainer invoice (prepay) and a digital purchase's
// invoice (digital). The invoice documents' layout (server/pdf/invoice-document.ts) and words (`invoices:pdf`);
// the caller names the line and may add a title, sections (an unpaid bank transfer's details) and a note. The
// owner's only: another user's, a void one, or (for prepayments) one hidden from its owner is not found. Its
// issuer is the legal entity stored on it when it was issued (ADR 052), whatever the config says today. Rendered
// once per content.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { fail, type Result } from "#common/result";
import { formatDate, formatMoney } from "#common/format";
import { USD } from "#common/money";
import { isSiteLang, LANG_TAG, type SiteLang } from "#common/i18n";
import { rateText } from "#common/invoices/list";
import { personName } from "#common/names";
import type { AppContext } from "../../context";
import { localizationTimeZone } from "../../config";
import { fixedT } from "../../i18n";
import { cachedPdf } from "../../pdf/cached";
import { INVOICE_DOCUMENT_LAYOUT_VERSION, type InvoiceDocumentData } from "../../pdf/invoice-document";
import { INVOICE_DOCUMENT_CACHE_SECONDS } from "./documents";
import { entityHeading, entityOfDocument } from "./entity";

/** What the caller may add, knowing the invoice. */
export interface OneLineFacts {
  number: string;
  lang: SiteLang;
  currencyIso: string;
  /** Minor units still owed. */
  balance: number;
  methodId: number | null;
}

export interface OneLineInvoiceOptions {
  kind: "prepayment" | "digital";
  /** Not found for an owner whose invoices are hidden (hide_invoices: prepayments are invoices they never see). */
  refuseHidden: boolean;
  /** The cache key's tag ("retainer", "digital"). */
  tag: string;
  /** The one line of the table. */
  line: (lang: SiteLang) => string;
  /** The document's title and its number's label; the invoice documents' "Invoice" and "Invoice number" when absent. */
  title?: (lang: SiteLang) => string;
  numberLabel?: (lang: SiteLang) => string;
  /** Sections printed after the payments (e.g. where to send a bank transfer). */
  sections?: (facts: OneLineFacts) => InvoiceDocumentData["sections"];
  /** A last paragraph of the notes. */
  note?: (lang: SiteLang) => string;
}

/** The owner's invoice of `options.kind` as a PDF. Errors: `sign-in-required`, `not-found`. */
export async function oneLineInvoicePdf(
  app: AppContext,
  userId: number | null,
  number: string,
  options: OneLineInvoiceOptions,
): Promise<Result<Buffer>> {
  if (userId === null) return fail("sign-in-required");
  const r = await app.db
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
    .where("r.kind", "=", options.kind)
    .where("r.user_id", "=", userId)
    .executeTakeFirst();
  if (!r || (options.refuseHidden && r.hide_invoices) || r.status === "void") return fail("not-found");
  const payments = await app.db
    .selectFrom("invoice_payments as p")
    .leftJoin("payments as pay", "pay.id", "p.payment_id")
    .select(["p.id", "p.amount", "p.payment_method_id", "p.reference", sql<string>`p.received_on::text`.as("received_on"), "pay.sandbox"])
    .where("p.invoice_number", "=", number)
    .where("p.kind", "=", "payment")
    .orderBy("p.id")
    .execute();
  const lang = isSiteLang(r.lang) ? r.lang : isSiteLang(r.language) ? r.language : "en";
  const { localizations } = await app.config.snapshot();
  const timeZone = localizationTimeZone(localizations, r.localization ?? "US");
  const inv = fixedT(lang, "invoices");
  const word = (k: string, o?: Record<string, unknown>) => String(inv(`pdf.${k}`, o ?? {}));
  const currency = { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals };
  const money = (n: number) => formatMoney(n, currency);
  const day = (d: string) => formatDate(`${d.slice(0, 10)}T12:00:00Z`, lang, "UTC");
  const method = (id: number) => {
    const name = String(inv(`methods.${id}`));
    return name === `methods.${id}` ? String(inv("methods.other")) : name;
  };
  const company = entityHeading(await entityOfDocument(app, r.legal_entity, r.localization));
  const balance = Number(r.balance);
  const paid = payments.reduce((s, p) => s + Number(p.amount), 0);
  // An invoice in another currency than USD prints its USD base and the rate of its day (ADR 052).
  const base =
    currency.isoCode !== "USD" && r.usd_total !== null && r.exchange_rate !== null
      ? { usd: formatMoney(Number(r.usd_total), USD), rate: rateText(r.exchange_rate, LANG_TAG[lang]) }
      : null;
  const facts: OneLineFacts = { number: r.number, lang, currencyIso: currency.isoCode, balance, methodId: r.method_id };
  const data: InvoiceDocumentData = {
    lang,
    title: options.title ? options.title(lang) : word("invoiceTitle"),
    keywords: r.number,
    testMode: payments.some((p) => p.sandbox) ? word("testMode") : null,
    company,
    meta: [
      { label: options.numberLabel ? options.numberLabel(lang) : word("invoiceNumber"), value: r.number, bold: true },
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
      rows: [[options.line(lang), "1", money(Number(r.amount))]],
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
      ...(options.sections ? options.sections(facts) : []),
      {
        heading: word("notes"),
        paragraphs: [
          word("currencyNote", { currency: currency.isoCode }),
          ...(base
            ? [word("rateNote", { ...base, currency: currency.isoCode, date: formatDate(new Date(r.created_at), lang, timeZone) })]
            : []),
          ...(options.note ? [options.note(lang)] : []),
        ],
      },
    ],
    footer: word("footer", { company: company.name }),
    pageLabel: word("page", { page: "{{page}}", count: "{{count}}", interpolation: { escapeValue: false } }),
  };
  const hash = createHash("sha256").update(JSON.stringify(data)).digest("hex").slice(0, 32);
  const key = `invoice-doc:${options.tag}:v${INVOICE_DOCUMENT_LAYOUT_VERSION}:${hash}`;
  return cachedPdf(app, key, INVOICE_DOCUMENT_CACHE_SECONDS, () => app.pdf.render("invoice-document", data));
}
