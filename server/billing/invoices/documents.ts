// The invoice's documents (issue 12 §5, spec 2 §7): the invoice (GET /api/invoice/{n}/pdf; ?localization picks
// only the language it is printed in, never its issuer, tax identifiers or amounts: ADR 052), the statement of delivery (GET /api/invoice/{n}/statement-of-delivery: 'pending'
// until the order is delivered, then a real statement) and a payment's receipt (GET /api/payment/{id}/pdf, id of
// the invoice_payments ledger row of kind payment). Each is the owner's only (another user's is not found), a
// real PDF in the invoice's language (invoices.lang, else the user's) with CJK fonts, rendered in the PDF pool
// once per content (the cache key is a hash of what it prints) and labelled "test mode" when a sandbox payment
// is involved. Every document prints the legal entity stored on the invoice when it was issued, and a converted
// invoice its USD base and the rate it was priced at. A balance spend (prepayment, credit) is printed as what it
// is, never as money received (ADR 052). Words come from the `invoices` namespace (its `pdf` block), amounts from formatMoney in the
// invoice's currency, dates in the localisation's clock.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { formatDate, formatMoney, type CurrencyFormat } from "#common/format";
import { USD } from "#common/money";
import { isSiteLang, LANG_TAG, type SiteLang } from "#common/i18n";
import type { Scope } from "../../scope";
import type { AppContext } from "../../context";
import { localizationTimeZone } from "../../config";
import { fixedT } from "../../i18n";
import { rateText } from "#common/invoices/list";
import { personName } from "#common/names";
import { entityHeading, entityOfDocument, type LegalEntity } from "./entity";
import { surplusKey, surplusOfInvoices, surplusValues } from "./surplus";
import { settlementOf, type SettlementKind } from "./settlement";
import { cachedPdf } from "../../pdf/cached";
import { INVOICE_DOCUMENT_LAYOUT_VERSION, type InvoiceDocumentData, type InvoiceDocTable } from "../../pdf/invoice-document";

export const INVOICE_DOCUMENT_CACHE_SECONDS = 60 * 60;

/** Everything the three documents print about one invoice, read for its owner. */
interface InvoiceFacts {
  number: string;
  orderNumber: string;
  orderTitle: string;
  createdAt: Date;
  dueAt: Date | null;
  completedAt: Date | null;
  amount: number;
  balance: number;
  status: string;
  currency: CurrencyFormat;
  lang: SiteLang;
  localization: string;
  /** Who issued it, as stored at issue. */
  entity: LegalEntity;
  /** The amount in USD cents and the rate (invoice currency per 1 USD) at issue; null when unknown. */
  usdTotal: number | null;
  exchangeRate: string | null;
  purchaseOrder: string | null;
  grantNumber: string | null;
  fapespProcessNumber: string | null;
  billing: Record<string, unknown> | null;
  /** The name's parts: written in the order of the language the document is printed in (?localization may change it). */
  customer: { firstName: string | null; lastName: string | null; email: string; institution: string | null };
  lineItems: { nameKey: string; quantity: number; totalPrice: number }[];
  discounts: { descriptionKey: string; appliedAmount: number }[];
  subtotal: number;
  wordCount: number | null;
  payments: LedgerPayment[];
}

interface LedgerPayment {
  id: string;
  amount: number;
  methodId: number;
  reference: string;
  receivedOn: string;
  sandbox: boolean;
  paidAmount: number | null;
  paidCurrency: CurrencyFormat | null;
  exchangeRate: string | null;
  /** What settled it: money from a provider or staff, or a balance (ADR 052). */
  kind: SettlementKind;
  /** The balance's number (PUS100001, CR100001) for a balance spend. */
  balanceNumber: string | null;
  /** The provider that took the money (alipay, boleto…), for a payment through one. */
  provider: string | null;
  /** The provider's own transaction id where our reference is our id (Alipay's trade_no, WeChat's transaction_id…). */
  providerTxn: string | null;
}

const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

async function invoiceFacts(scope: Scope, number: string): Promise<Result<InvoiceFacts>> {
  if (scope.userId === null) return fail("unauthorized");
  const r = await scope.app.db
    .selectFrom("invoices as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .innerJoin("users as u", "u.id", "i.user_id")
    .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
    .select([
      "i.number",
      "i.created_at",
      "i.due_at",
      "i.amount",
      "i.balance",
      "i.status",
      "i.currency_iso",
      "c.sign",
      "c.num_decimals",
      "i.lang",
      "i.localization",
      "i.legal_entity",
      "i.usd_total",
      sql<string | null>`i.exchange_rate::text`.as("exchange_rate"),
      "i.purchase_order",
      "i.grant_number",
      "i.fapesp_process_number",
      "i.billing",
      "o.external_id",
      "o.title",
      "o.completed_at",
      "o.line_items",
      "o.discounts",
      "o.subtotal",
      "o.word_count",
      "o.purchase_order as order_purchase_order",
      "u.first_name",
      "u.last_name",
      "u.email",
      "u.institution",
      "u.language",
      "u.localization as user_localization",
      "u.hide_invoices",
    ])
    .where("i.number", "=", number)
    .where("i.kind", "=", "order")
    .where("i.user_id", "=", scope.userId)
    .executeTakeFirst();
  // Another user's invoice, or one hidden from its owner, is not found.
  if (!r || r.hide_invoices) return fail("not-found");
  const payments = await ledgerPayments(scope.app, [r.number]);
  const lang = isSiteLang(r.lang) ? r.lang : isSiteLang(r.language) ? r.language : "en";
  const localization = r.localization ?? r.user_localization;
  return ok({
    number: r.number,
    orderNumber: r.external_id,
    orderTitle: r.title,
    createdAt: new Date(r.created_at),
    dueAt: r.due_at ? new Date(r.due_at) : null,
    completedAt: r.completed_at ? new Date(r.completed_at) : null,
    amount: Number(r.amount),
    balance: Number(r.balance),
    status: r.status,
    currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    lang,
    localization,
    entity: await entityOfDocument(scope.app, r.legal_entity, localization),
    usdTotal: r.usd_total === null ? null : Number(r.usd_total),
    exchangeRate: r.exchange_rate,
    purchaseOrder: r.purchase_order ?? r.order_purchase_order,
    grantNumber: r.grant_number,
    fapespProcessNumber: r.fapesp_process_number,
    billing: r.billing ? parse<Record<string, unknown>>(r.billing) : null,
    customer: {
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      institution: r.institution,
    },
    lineItems: parse<InvoiceFacts["lineItems"]>(r.line_items) ?? [],
    discounts: parse<InvoiceFacts["discounts"]>(r.discounts) ?? [],
    subtotal: Number(r.subtotal),
    wordCount: r.word_count,
    payments,
  });
}

async function ledgerPayments(app: AppContext, numbers: string[]): Promise<LedgerPayment[]> {
  const rows = await app.db
    .selectFrom("invoice_payments as p")
    .leftJoin("payments as pay", "pay.id", "p.payment_id")
    .leftJoin("currencies as pc", "pc.iso_code", "p.paid_currency_iso")
    .select([
      "p.id",
      "p.amount",
      "p.payment_method_id",
      "p.reference",
      sql<string>`p.received_on::text`.as("received_on"),
      "pay.sandbox",
      "pay.provider",
      // The provider's transaction id from its verified success event: Alipay, WeChat Pay and UnionPay are
      // given our payment id as their order number, so the researcher's reference is the one they assign.
      sql<string | null>`(
        select coalesce(e.data->>'tradeNo', e.data->>'transactionId', e.data->>'queryId')
        from payment_events e
        where e.payment_id = pay.id and e.verified and e.outcome = 'succeeded'
          and coalesce(e.data->>'tradeNo', e.data->>'transactionId', e.data->>'queryId') is not null
        order by e.id
        limit 1
      )`.as("provider_txn"),
      "p.paid_amount",
      "p.paid_currency_iso",
      "pc.sign as paid_sign",
      "pc.num_decimals as paid_decimals",
      "p.exchange_rate",
    ])
    .where("p.invoice_number", "in", numbers)
    .where("p.kind", "=", "payment")
    .orderBy("p.id")
    .execute();
  return rows.map((p) => ({
    id: String(p.id),
    amount: Number(p.amount),
    methodId: p.payment_method_id,
    reference: p.reference,
    receivedOn: p.received_on.slice(0, 10),
    sandbox: Boolean(p.sandbox),
    paidAmount: p.paid_amount === null ? null : Number(p.paid_amount),
    paidCurrency:
      p.paid_currency_iso && p.paid_sign !== null && p.paid_decimals !== null
        ? { isoCode: p.paid_currency_iso.trim(), sign: p.paid_sign, numDecimals: p.paid_decimals }
        : null,
    exchangeRate: p.exchange_rate,
    provider: p.provider ?? null,
    providerTxn: p.provider_txn,
    ...(({ kind, number }) => ({ kind, balanceNumber: number }))(settlementOf(p.payment_method_id, p.reference)),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Wording: the parts the three documents share.

interface Wording {
  t: (key: string, values?: Record<string, unknown>) => string;
  money: (n: number) => string;
  date: (d: Date | string) => string;
}

async function wordingOf(app: AppContext, f: InvoiceFacts): Promise<Wording & { timeZone: string }> {
  const { localizations } = await app.config.snapshot();
  const timeZone = localizationTimeZone(localizations, f.localization);
  const tr = fixedT(f.lang, "invoices");
  return {
    t: (key, values) => String(tr(key, values ?? {})),
    money: (n) => formatMoney(n, f.currency),
    // A ledger day (YYYY-MM-DD) is a calendar day, not an instant: shown as that day whatever the clock.
    date: (d) => (typeof d === "string" ? formatDate(`${d}T12:00:00Z`, f.lang, "UTC") : formatDate(d, f.lang, timeZone)),
    timeZone,
  };
}

/** The billing address as printed lines (the payment form's address: spec 2 §3 "Address"). */
function billingLines(billing: Record<string, unknown> | null): string[] {
  if (!billing) return [];
  const v = (k: string) => {
    const x = billing[k];
    if (x && typeof x === "object" && "name" in x) return String((x as { name: unknown }).name ?? "");
    return typeof x === "string" || typeof x === "number" ? String(x).trim() : "";
  };
  const cityLine = [v("city"), v("state"), v("zip")].filter(Boolean).join(", ");
  return [
    v("name"),
    v("organization"),
    v("address1"),
    v("address2"),
    cityLine,
    v("country"),
    v("phone"),
    v("vat") && `VAT ${v("vat")}`,
  ].filter((s): s is string => Boolean(s));
}

function common(f: InvoiceFacts, w: Wording) {
  const company = entityHeading(f.entity);
  const parties = [
    {
      heading: w.t("pdf.billTo"),
      lines: [
        // Family name first in Chinese and Japanese, in the document's language (the one rule of #common/names).
        personName(f.customer.firstName, f.customer.lastName, f.lang),
        f.customer.institution ?? "",
        f.customer.email,
      ].filter(Boolean),
    },
  ];
  const billing = billingLines(f.billing);
  if (billing.length) parties.push({ heading: w.t("pdf.billingAddress"), lines: billing });
  const references = [
    { label: w.t("pdf.order"), value: `${f.orderNumber} · ${f.orderTitle}` },
    ...(f.purchaseOrder ? [{ label: w.t("pdf.purchaseOrder"), value: f.purchaseOrder }] : []),
    ...(f.grantNumber ? [{ label: w.t("pdf.grantNumber"), value: f.grantNumber }] : []),
    ...(f.fapespProcessNumber ? [{ label: w.t("pdf.fapespProcessNumber"), value: f.fapespProcessNumber }] : []),
  ];
  return {
    lang: f.lang,
    company,
    parties,
    references,
    footer: w.t("pdf.footer", { company: company.name }),
    pageLabel: w.t("pdf.page", { page: "{{page}}", count: "{{count}}", interpolation: { escapeValue: false } }),
  };
}

/** "R$500,00 paid at 1 USD = 5.1234 BRL" when the payment's currency differed from the invoice's. */
function exchangeNote(p: LedgerPayment, f: InvoiceFacts, w: Wording): string | null {
  if (p.paidAmount === null || !p.paidCurrency || p.paidCurrency.isoCode === f.currency.isoCode) return null;
  return w.t("pdf.exchange", {
    paid: formatMoney(p.paidAmount, p.paidCurrency),
    // numeric(18,8) as stored ("7.21000000"), printed without its trailing zeros.
    rate: p.exchangeRate === null ? "" : rateText(p.exchangeRate, LANG_TAG[f.lang]),
    from: f.currency.isoCode,
    to: p.paidCurrency.isoCode,
  });
}

function methodName(w: Wording, p: LedgerPayment): string {
  // A balance spend is named by its kind, never as the generic "Credits" method.
  if (p.kind !== "payment") return w.t(`pdf.settledBy.${p.kind}`);
  const name = w.t(`methods.${p.methodId}`);
  return name === `methods.${p.methodId}` ? w.t("methods.other") : name;
}

/**
 * The reference printed, never the ledger's internal key: the balance a spend came from ("Prepayment PUS100001"), or
 * the provider's own reference labelled by its method ("Alipay trade no. 2026…", "Boleto nº 00012345") instead of
 * "alipay:<our uuid>". A reference staff typed for a bank transfer is printed as typed.
 */
function referenceOf(w: Wording, p: LedgerPayment): string {
  if (p.kind !== "payment") return w.t(`pdf.balanceReference.${p.kind}`, { number: p.balanceNumber });
  return providerReference(w.t, p);
}

function providerReference(t: Wording["t"], p: Pick<LedgerPayment, "reference" | "provider" | "providerTxn">): string {
  const prefix = p.provider ? `${p.provider}:` : null;
  if (!prefix || !p.reference.startsWith(prefix)) return p.reference;
  const ref = p.providerTxn ?? p.reference.slice(prefix.length);
  const key = `pdf.providerReference.${p.provider}`;
  const labelled = t(key, { ref });
  return labelled === key ? t("pdf.providerReference.other", { ref }) : labelled;
}

/** "US$100.00 at 1 USD = 5.1234 BRL": the USD base and the rate of a converted invoice, or null for USD. */
function usdBase(f: InvoiceFacts, w: Wording): { label: string; value: string; note: string } | null {
  if (f.currency.isoCode === "USD" || f.usdTotal === null || f.exchangeRate === null) return null;
  const usd = formatMoney(f.usdTotal, USD);
  return {
    label: w.t("pdf.usdBase"),
    value: usd,
    note: w.t("pdf.rateNote", {
      usd,
      rate: rateText(f.exchangeRate, LANG_TAG[f.lang]),
      currency: f.currency.isoCode,
      date: w.date(f.createdAt),
    }),
  };
}

function paymentsTable(f: InvoiceFacts, w: Wording): InvoiceDocTable {
  return {
    columns: [
      { header: w.t("pdf.date"), share: 18 },
      { header: w.t("pdf.method"), share: 22 },
      { header: w.t("pdf.reference"), share: 36 },
      { header: w.t("pdf.amount"), share: 24, align: "right" },
    ],
    rows: f.payments.map((p) => {
      const note = exchangeNote(p, f, w);
      const reference = referenceOf(w, p);
      return [w.date(p.receivedOn), methodName(w, p), note ? `${reference}\n${note}` : reference, w.money(p.amount)];
    }),
  };
}

const testModeOf = (payments: LedgerPayment[], w: Wording) => (payments.some((p) => p.sandbox) ? w.t("pdf.testMode") : null);

function statusText(f: InvoiceFacts, w: Wording): string {
  return w.t(`status.${f.balance === 0 ? "paid" : f.status === "void" ? "void" : "unpaid"}`);
}

function cacheKey(kind: string, data: InvoiceDocumentData): string {
  const hash = createHash("sha256").update(JSON.stringify(data)).digest("hex").slice(0, 32);
  return `invoice-doc:${kind}:v${INVOICE_DOCUMENT_LAYOUT_VERSION}:${hash}`;
}

async function render(app: AppContext, kind: string, data: InvoiceDocumentData): Promise<Result<Buffer>> {
  return cachedPdf(app, cacheKey(kind, data), INVOICE_DOCUMENT_CACHE_SECONDS, () => app.pdf.render("invoice-document", data));
}

// ---------------------------------------------------------------------------------------------------------
// The three documents.

/** What the invoice PDF prints (exported for tests): the stored issuer and amounts, in the invoice's language. */
export async function invoiceDocumentData(app: AppContext, f: InvoiceFacts): Promise<InvoiceDocumentData> {
  const w = await wordingOf(app, f);
  const base = usdBase(f, w);
  const catalogue = fixedT(f.lang, "catalogue");
  const paid = f.payments.reduce((s, p) => s + p.amount, 0);
  return {
    ...common(f, w),
    title: w.t("pdf.invoiceTitle"),
    keywords: f.number,
    testMode: testModeOf(f.payments, w),
    meta: [
      { label: w.t("pdf.invoiceNumber"), value: f.number, bold: true },
      { label: w.t("pdf.issued"), value: w.date(f.createdAt) },
      ...(f.dueAt ? [{ label: w.t("pdf.due"), value: w.date(f.dueAt) }] : []),
      { label: w.t("pdf.status"), value: statusText(f, w) },
    ],
    table: {
      columns: [
        { header: w.t("pdf.description"), share: 64 },
        { header: w.t("pdf.quantity"), share: 12, align: "right" },
        { header: w.t("pdf.amount"), share: 24, align: "right" },
      ],
      rows: f.lineItems.map((l) => [String(catalogue(l.nameKey)), String(l.quantity ?? 1), w.money(l.totalPrice)]),
    },
    totals: [
      ...(f.discounts.length ? [{ label: w.t("pdf.subtotal"), value: w.money(f.subtotal) }] : []),
      ...f.discounts.map((d) => ({ label: String(catalogue(d.descriptionKey)), value: w.money(-d.appliedAmount) })),
      { label: w.t("pdf.total"), value: w.money(f.amount), bold: true },
      ...(base ? [{ label: base.label, value: base.value }] : []),
      { label: w.t("pdf.paid"), value: w.money(paid) },
      { label: w.t("pdf.balance"), value: w.money(f.balance), bold: true },
    ],
    sections: [
      ...(f.payments.length ? [{ heading: w.t("pdf.payments"), table: paymentsTable(f, w) }] : []),
      {
        heading: w.t("pdf.notes"),
        paragraphs: [w.t("pdf.currencyNote", { currency: f.currency.isoCode }), ...(base ? [base.note] : []), w.t("pdf.invoiceNote")],
      },
    ],
  };
}

/**
 * The invoice as a PDF. A known `localization` (spec 2 §7) chooses only its presentation, the language of that
 * localisation; the issuer, its tax identifier and the amounts are the invoice's own. Errors: `not-found`.
 */
export async function invoicePdf(scope: Scope, number: string, options: { localization?: string } = {}): Promise<Result<Buffer>> {
  const f = await invoiceFacts(scope, number);
  if (!f.ok) return f;
  const { localizations } = await scope.app.config.snapshot();
  const asked = options.localization ? localizations.find((l) => l.identity === options.localization) : undefined;
  const lang = asked && isSiteLang(asked.defaultLang) ? asked.defaultLang : f.value.lang;
  return render(scope.app, "invoice", await invoiceDocumentData(scope.app, { ...f.value, lang }));
}

export type StatementOfDelivery = { status: "pending" } | { status: "ready"; pdf: Buffer };

/** The statement of delivery: 'pending' until the order is delivered (completed), then the PDF. Errors: `not-found`. */
export async function statementOfDelivery(scope: Scope, number: string): Promise<Result<StatementOfDelivery>> {
  const r = await invoiceFacts(scope, number);
  if (!r.ok) return r;
  const f = r.value;
  if (!f.completedAt) return ok({ status: "pending" });
  const w = await wordingOf(scope.app, f);
  const catalogue = fixedT(f.lang, "catalogue");
  const data: InvoiceDocumentData = {
    ...common(f, w),
    title: w.t("pdf.statementTitle"),
    keywords: f.number,
    testMode: testModeOf(f.payments, w),
    meta: [
      { label: w.t("pdf.invoiceNumber"), value: f.number, bold: true },
      { label: w.t("pdf.deliveredOn"), value: w.date(f.completedAt) },
    ],
    table: {
      columns: [
        { header: w.t("pdf.service"), share: 70 },
        { header: w.t("pdf.quantity"), share: 30, align: "right" },
      ],
      rows: f.lineItems.map((l) => [String(catalogue(l.nameKey)), String(l.quantity ?? 1)]),
    },
    totals: [{ label: w.t("pdf.total"), value: w.money(f.amount), bold: true }],
    sections: [
      {
        heading: w.t("pdf.statementHeading"),
        paragraphs: [
          w.t("pdf.statementText", {
            company: f.entity.name,
            order: f.orderNumber,
            title: f.orderTitle,
            date: w.date(f.completedAt),
          }),
          ...(f.wordCount ? [w.t("pdf.wordCount", { count: f.wordCount })] : []),
        ],
      },
    ],
  };
  const pdf = await render(scope.app, "statement", data);
  return pdf.ok ? ok({ status: "ready", pdf: pdf.value }) : pdf;
}

/** The receipt of one payment (an invoice_payments row of kind payment). Errors: `not-found` (none, another user's). */
export async function paymentReceiptPdf(scope: Scope, ledgerId: string): Promise<Result<Buffer>> {
  if (!/^\d{1,18}$/.test(ledgerId)) return fail("not-found");
  const row = await scope.app.db
    .selectFrom("invoice_payments")
    .select("invoice_number")
    .where("id", "=", ledgerId)
    .where("kind", "=", "payment")
    .executeTakeFirst();
  if (!row) return fail("not-found");
  const r = await invoiceFacts(scope, row.invoice_number);
  if (!r.ok) return r;
  const f = r.value;
  const p = f.payments.find((x) => x.id === ledgerId);
  if (!p) return fail("not-found");
  const w = await wordingOf(scope.app, f);
  // The balance the invoice had once this payment was in: the payments up to it taken off the amount.
  const upTo = f.payments.filter((x) => BigInt(x.id) <= BigInt(p.id)).reduce((s, x) => s + x.amount, 0);
  const note = exchangeNote(p, f, w);
  const base = usdBase(f, w);
  // A balance spend moved no money: its document says what settled the invoice, not that a payment was received.
  const spend = p.kind !== "payment";
  // What the invoice's payments captured beyond its amount (a duplicate, two tabs) and where it went (ADR 051):
  // a duplicate has no ledger row of its own, so the invoice's receipt is where the researcher reads it.
  const surplus = scope.userId === null ? [] : ((await surplusOfInvoices(scope.app.db, scope.userId, [f.number])).get(f.number) ?? []);
  const data: InvoiceDocumentData = {
    ...common(f, w),
    title: w.t(spend ? "pdf.settlementTitle" : "pdf.receiptTitle"),
    keywords: `${f.number}-${p.id}`,
    testMode: p.sandbox ? w.t("pdf.testMode") : null,
    meta: [
      { label: w.t("pdf.receiptNumber"), value: `${f.number}-${p.id}`, bold: true },
      { label: w.t("pdf.invoiceNumber"), value: f.number },
      { label: w.t(spend ? "pdf.settledOn" : "pdf.receivedOn"), value: w.date(p.receivedOn) },
    ],
    table: {
      columns: [
        { header: w.t("pdf.method"), share: 30 },
        { header: w.t("pdf.reference"), share: 45 },
        { header: w.t("pdf.amount"), share: 25, align: "right" },
      ],
      rows: [[methodName(w, p), referenceOf(w, p), w.money(p.amount)]],
    },
    totals: [
      { label: w.t("pdf.invoiceTotal"), value: w.money(f.amount) },
      ...(base ? [{ label: base.label, value: base.value }] : []),
      { label: w.t(spend ? "pdf.settled" : "pdf.received"), value: w.money(p.amount), bold: true },
      { label: w.t("pdf.balanceAfter"), value: w.money(Math.max(0, f.amount - upTo)) },
      ...surplus.map((x) => ({ label: w.t("pdf.overpaid"), value: formatMoney(x.amount, x.currency) })),
    ],
    sections: [
      {
        heading: w.t("pdf.notes"),
        paragraphs: [
          ...(note ? [note] : []),
          ...(base ? [base.note] : []),
          spend ? w.t(`pdf.settlementNote.${p.kind}`, { number: p.balanceNumber }) : w.t("pdf.receiptNote", { company: f.entity.name }),
          ...surplus.map((x) => w.t(`surplus.${surplusKey(x)}`, surplusValues(x))),
        ],
      },
    ],
  };
  return render(scope.app, "receipt", data);
}
