// The price-quote PDF: company, customer, line items, discounts, totals, delivery, validity.
import { formatDate, formatMoney, type CurrencyFormat } from "../../app/lib/format";
import { LANG_TAG, type SiteLang } from "../../app/lib/i18n";
import { fixedT } from "../i18n";
import { newDocument, numberPages, toBuffer } from "./document";

export interface PriceQuoteData {
  lang: SiteLang;
  estimateId: string;
  issuedAt: Date;
  validUntil: Date;
  customer: { name: string; email: string; institution?: string | null } | null;
  company: { name: string; website: string };
  currency: CurrencyFormat;
  lineItems: { description: string; quantity: number; listPrice: number; totalPrice: number }[];
  discounts: { description: string; amount: number }[];
  subtotal: number;
  total: number;
  deadline: Date | null;
  wordCount: number | null;
  projectTitle: string | null;
  timeZone: string;
}

export async function renderPriceQuote(q: PriceQuoteData): Promise<Buffer> {
  const t = fixedT(q.lang, "order");
  const money = (n: number) => formatMoney(n, q.currency);
  const doc = newDocument({ title: `${t("quote.title")} ${q.estimateId}`, author: q.company.name, lang: LANG_TAG[q.lang] });
  const left = 50;
  const width = doc.page.width - 100;

  doc.font("bold").fontSize(18).fillColor("#0b5d7a").text(q.company.name, left, 50);
  doc.font("body").fontSize(9).fillColor("#333").text(q.company.website);
  doc.moveDown(1.2);
  doc.font("bold").fontSize(16).fillColor("#000").text(t("quote.title"));
  doc.font("body").fontSize(10);
  doc.text(`${t("quote.number")}: ${q.estimateId}`);
  doc.text(`${t("quote.issued")}: ${formatDate(q.issuedAt, q.lang, q.timeZone)}`);
  doc.text(`${t("quote.validUntil")}: ${formatDate(q.validUntil, q.lang, q.timeZone)}`);
  if (q.customer) {
    doc.moveDown(0.8);
    doc.font("bold").text(t("quote.customer"));
    doc.font("body").text(q.customer.name).text(q.customer.email);
    if (q.customer.institution) doc.text(q.customer.institution);
  }
  if (q.projectTitle) doc.moveDown(0.5).text(`${t("details.projectTitle")}: ${q.projectTitle}`);
  if (q.wordCount) doc.text(`${t("getStarted.wordCount")}: ${q.wordCount.toLocaleString(LANG_TAG[q.lang])}`);

  // Line items: description, quantity, amount (right-aligned); long lists continue on the next page.
  doc.moveDown(1);
  const cols = { desc: left, qty: left + width * 0.62, amount: left + width * 0.72 };
  const row = (a: string, b: string, c: string, bold = false) => {
    if (doc.y > doc.page.height - 120) doc.addPage();
    const y = doc.y;
    doc.font(bold ? "bold" : "body").fontSize(10);
    doc.text(a, cols.desc, y, { width: width * 0.6 });
    const after = doc.y;
    doc.text(b, cols.qty, y, { width: width * 0.1, align: "right" });
    doc.text(c, cols.amount, y, { width: width * 0.28, align: "right" });
    doc.y = Math.max(after, doc.y) + 4;
  };
  row(t("quote.service"), t("quantity"), t("quote.amount"), true);
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor("#ccc").stroke();
  doc.y += 4;
  for (const l of q.lineItems) row(l.description, String(l.quantity), money(l.listPrice));
  for (const d of q.discounts) row(d.description, "", `-${money(d.amount)}`);
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.y += 4;
  row(t("quote.subtotal"), "", money(q.subtotal));
  row(t("total"), "", money(q.total), true);

  doc.moveDown(1);
  doc.font("body").fontSize(10).text(q.deadline ? t("deadline", { date: formatDate(q.deadline, q.lang, q.timeZone) }) : t("deadlineByQuote"), left, doc.y, { width });
  doc.moveDown(0.5).fontSize(9).fillColor("#555").text(t("quote.note"), { width });
  numberPages(doc, `${q.company.name} — ${t("quote.title")} ${q.estimateId}`);
  return toBuffer(doc);
}
