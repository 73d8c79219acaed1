// The price-quote PDF (spec 1 §2 "Price quote", §7 GET /api/price-quote/{estimateId}/pdf): company
// header, quote number and dates, customer, line items with right-aligned amounts, discounts,
// subtotal and total, estimated delivery, notes, and a footer with page numbers on every page, in
// the quote's language (labels from locales/{locale}/pdf.json).
import type { Writable } from "node:stream";
import { formatDate, formatDateTime, formatMoney, type CurrencyFormat } from "#common/format";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { COLORS, Pdf, type TableColumn, type TableRow } from "./document";
import { pdfT } from "./labels";

export interface PriceQuoteData {
  lang: SiteLang;
  estimateId: string;
  issuedAt: Date;
  validUntil: Date;
  customer: { name: string; email: string; institution?: string | null } | null;
  company: { name: string; address?: string[]; email?: string | null; website?: string | null };
  currency: CurrencyFormat;
  /** Amounts in integer minor units. `listPrice` is the line before its discount; `discountAmount`
   * defaults to listPrice − totalPrice. `description` is already translated. */
  lineItems: { description: string; quantity?: number | null; listPrice: number; discountAmount?: number; totalPrice: number }[];
  /** Order-level discounts (promotional codes, vouchers), positive amounts taken off the subtotal. */
  discounts: { description: string; amount: number }[];
  subtotal: number;
  total: number;
  deadline: Date | null;
  wordCount?: number | null;
  projectTitle?: string | null;
  notes?: string[];
  /** Time zone of the dates (the localisation's); UTC by default. */
  timeZone?: string;
}

function build(q: PriceQuoteData): Pdf {
  const t = pdfT(q.lang);
  const tz = q.timeZone ?? "UTC";
  const money = (n: number) => formatMoney(n, q.currency);
  const title = t("priceQuote.title");
  const pdf = new Pdf({ lang: q.lang, title: `${title} ${q.estimateId}`, author: q.company.name, subject: title, keywords: q.estimateId });
  const { left, right, contentWidth: width } = pdf;

  // Header: company (left), title with number and dates (right).
  const split = width * 0.55;
  let yl = pdf.text(q.company.name, left, PAGE_TOP, split - 10, { weight: "bold", size: 16, color: COLORS.brand }) + 2;
  for (const line of [...(q.company.address ?? []), q.company.email ?? "", q.company.website ?? ""].filter(Boolean)) {
    yl = pdf.text(line, left, yl, split - 10, { size: 9, color: COLORS.muted });
  }
  let yr = pdf.text(title, left + split, PAGE_TOP, width - split, { weight: "bold", size: 20, align: "right" }) + 4;
  yr = pdf.keyValues(
    [
      { label: t("priceQuote.number"), value: q.estimateId, bold: true },
      { label: t("priceQuote.issued"), value: formatDate(q.issuedAt, q.lang, tz) },
      { label: t("priceQuote.validUntil"), value: formatDate(q.validUntil, q.lang, tz) },
    ],
    left + split,
    yr,
    width - split,
  );
  let y = Math.max(yl, yr) + 10;
  pdf.rule(y, { color: COLORS.brand, width: 1.2 });
  y += 14;

  // Customer (left) and project (right).
  const top = y;
  if (q.customer) {
    yl = pdf.text(t("priceQuote.preparedFor"), left, y, split - 10, { weight: "bold", size: 9, color: COLORS.muted }) + 2;
    yl = pdf.text(q.customer.name, left, yl, split - 10, { weight: "bold", size: 11 });
    if (q.customer.institution) yl = pdf.text(q.customer.institution, left, yl, split - 10);
    yl = pdf.text(q.customer.email, left, yl, split - 10, { color: COLORS.muted });
  } else yl = y;
  const project: { label: string; value: string }[] = [];
  if (q.projectTitle) project.push({ label: t("priceQuote.project"), value: q.projectTitle });
  if (q.wordCount) project.push({ label: t("priceQuote.wordCount"), value: new Intl.NumberFormat(LANG_TAG[q.lang]).format(q.wordCount) });
  yr = project.length ? pdf.keyValues(project, left + split, top, width - split, { labelShare: 0.35, valueAlign: "left" }) : top;
  y = Math.max(yl, yr) + 18;

  // Line items. List price and discount columns only when some line has a discount.
  const lineDiscount = (l: PriceQuoteData["lineItems"][number]) => l.discountAmount ?? Math.max(0, l.listPrice - l.totalPrice);
  const withDiscounts = q.lineItems.some((l) => lineDiscount(l) !== 0);
  const columns: TableColumn[] = [
    { header: t("table.description"), share: withDiscounts ? 46 : 64 },
    { header: t("table.quantity"), share: 10, align: "right" },
    ...(withDiscounts
      ? ([
          { header: t("table.listPrice"), share: 16, align: "right" },
          { header: t("table.discount"), share: 14, align: "right" },
        ] as TableColumn[])
      : []),
    { header: t("table.amount"), share: withDiscounts ? 16 : 26, align: "right" },
  ];
  const rows: TableRow[] = q.lineItems.map((l) => ({
    cells: [
      l.description,
      l.quantity == null ? "" : new Intl.NumberFormat(LANG_TAG[q.lang]).format(l.quantity),
      ...(withDiscounts ? [money(l.listPrice), lineDiscount(l) ? money(-lineDiscount(l)) : ""] : []),
      money(l.totalPrice),
    ],
  }));
  y = pdf.table(columns, rows, y) + 10;

  // Subtotal, order discounts, total: kept together on one page.
  const box = width * 0.5;
  y = pdf.ensureSpace(y, (q.discounts.length + 1) * 17 + 45);
  y = pdf.keyValues(
    [
      { label: t("totals.subtotal"), value: money(q.subtotal) },
      ...q.discounts.map((d) => ({ label: d.description, value: money(-d.amount) })),
    ],
    right - box,
    y,
    box,
    { labelShare: 0.6 },
  );
  y = pdf.ensureSpace(y, 40);
  pdf.rule(y, { x1: right - box, color: COLORS.text });
  y = pdf.keyValues(
    [{ label: t("totals.total"), value: money(q.total), bold: true, size: 12, color: COLORS.text }],
    right - box,
    y + 5,
    box,
  );
  y =
    pdf.text(t("totals.currencyNote", { currency: q.currency.isoCode }), right - box, y, box, {
      size: 8,
      color: COLORS.muted,
      align: "right",
    }) + 16;

  // Estimated delivery.
  const delivery = q.deadline ? formatDateTime(q.deadline, q.lang, tz) : t("priceQuote.deliveryAfterOrder");
  y = pdf.ensureSpace(y, 40);
  y = pdf.text(t("priceQuote.estimatedDelivery"), left, y, width, { weight: "bold", size: 10 }) + 2;
  y = pdf.text(delivery, left, y, width, { size: q.deadline ? 11 : 10 }) + 14;

  // Notes: the caller's, then validity and delivery.
  const notes = [
    ...(q.notes ?? []),
    t("priceQuote.validity", { date: formatDate(q.validUntil, q.lang, tz) }),
    t("priceQuote.deliveryNote"),
  ];
  y = pdf.ensureSpace(y, 40);
  y = pdf.text(t("priceQuote.notes"), left, y, width, { weight: "bold", size: 10 }) + 3;
  for (const note of notes) {
    y = pdf.ensureSpace(y, pdf.heightOf(note, width - 12, { size: 9 }));
    pdf.text("•", left, y, 10, { size: 9, color: COLORS.muted });
    y = pdf.text(note, left + 12, y, width - 12, { size: 9, color: COLORS.muted }) + 3;
  }

  pdf.footers((page, count) => ({
    left: `${t("priceQuote.number")} ${q.estimateId} · ${t("footer.line", { company: q.company.name })}`,
    right: t("footer.page", { page, count }),
  }));
  return pdf;
}

const PAGE_TOP = 50;

/**
 * Part of the cache key of rendered quotes (server/order-form/quote.ts): raise it with any change to
 * the layout above, so a cached PDF of the old layout is not served after a deploy.
 */
export const PRICE_QUOTE_LAYOUT_VERSION = 1;

/** Renders the quote to a PDF file in memory. */
export function renderPriceQuote(data: PriceQuoteData): Promise<Buffer> {
  return build(data).toBuffer();
}

/** Renders the quote into a stream (e.g. the HTTP response); resolves when it has finished. */
export function writePriceQuote(data: PriceQuoteData, out: Writable): Promise<void> {
  return build(data).pipeTo(out);
}
