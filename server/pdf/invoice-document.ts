// The invoice's documents (issue 12 §5, spec 2 §7): the invoice, its statement of delivery and a payment's
// receipt share one layout, drawn here from data already worded and formatted by server/invoices/documents.ts
// in the document's language (amounts with formatMoney, dates in the localisation's clock): the company from
// configuration, the document's title and numbers, a "test mode" band when a sandbox payment is involved, the
// customer and billing address, the references (order, purchase order, grant, FAPESP process), a table of
// lines with totals, and further sections (payments with their exchange rates, notes). CJK fonts per string.
import type { SiteLang } from "#common/i18n";
import { COLORS, Pdf, type TableColumn } from "./document";

export interface InvoiceDocTable {
  columns: TableColumn[];
  rows: string[][];
}

export interface InvoiceDocumentData {
  lang: SiteLang;
  /** "Invoice", "Statement of delivery", "Payment receipt". */
  title: string;
  /** The document's number in the PDF's metadata (the invoice number, the receipt's). */
  keywords: string;
  /** The printed "TEST MODE" text when a sandbox payment is involved, else null. */
  testMode: string | null;
  company: { name: string; lines: string[] };
  /** Right of the title: number, dates, status. */
  meta: { label: string; value: string; bold?: boolean }[];
  /** Blocks under the header: "Bill to" and its lines, "Billing address"… */
  parties: { heading: string; lines: string[] }[];
  references: { label: string; value: string }[];
  table: InvoiceDocTable | null;
  totals: { label: string; value: string; bold?: boolean }[];
  sections: { heading: string; table?: InvoiceDocTable; paragraphs?: string[] }[];
  /** Footer text left, and "Page {{page}} of {{count}}" right. */
  footer: string;
  pageLabel: string;
}

/** Raise with any change to the layout: part of the cache key of rendered documents. */
export const INVOICE_DOCUMENT_LAYOUT_VERSION = 1;

const TOP = 50;

function build(d: InvoiceDocumentData): Pdf {
  const pdf = new Pdf({ lang: d.lang, title: `${d.title} ${d.keywords}`, author: d.company.name, subject: d.title, keywords: d.keywords });
  const { left, right, contentWidth: width } = pdf;
  const split = width * 0.55;

  let yl = pdf.text(d.company.name, left, TOP, split - 10, { weight: "bold", size: 16, color: COLORS.brand }) + 2;
  for (const line of d.company.lines) yl = pdf.text(line, left, yl, split - 10, { size: 9, color: COLORS.muted });
  let yr = pdf.text(d.title, left + split, TOP, width - split, { weight: "bold", size: 20, align: "right" }) + 4;
  yr = pdf.keyValues(d.meta, left + split, yr, width - split);
  let y = Math.max(yl, yr) + 8;

  if (d.testMode) {
    const h = pdf.heightOf(d.testMode, width - 16, { weight: "bold", size: 11 }) + 10;
    pdf.doc.save().rect(left, y, width, h).fill("#fff3cd").restore();
    pdf.text(d.testMode, left + 8, y + 5, width - 16, { weight: "bold", size: 11, color: "#7a4b00", align: "center" });
    y += h + 8;
  }
  pdf.rule(y, { color: COLORS.brand, width: 1.2 });
  y += 14;

  // Parties side by side (two a row), then the references.
  const colWidth = width / 2 - 10;
  for (let i = 0; i < d.parties.length; i += 2) {
    let bottom = y;
    d.parties.slice(i, i + 2).forEach((p, j) => {
      const x = left + j * (colWidth + 20);
      let yy = pdf.text(p.heading, x, y, colWidth, { weight: "bold", size: 9, color: COLORS.muted }) + 2;
      p.lines.forEach(
        (line, k) => (yy = pdf.text(line, x, yy, colWidth, { weight: k === 0 ? "bold" : "regular", size: k === 0 ? 11 : 10 })),
      );
      bottom = Math.max(bottom, yy);
    });
    y = bottom + 12;
  }
  if (d.references.length) y = pdf.keyValues(d.references, left, y, width, { labelShare: 0.3, valueAlign: "left" }) + 10;

  if (d.table)
    y =
      pdf.table(
        d.table.columns,
        d.table.rows.map((cells) => ({ cells })),
        y,
      ) + 10;
  if (d.totals.length) {
    const box = width * 0.5;
    y = pdf.ensureSpace(y, d.totals.length * 17 + 10);
    y = pdf.keyValues(
      d.totals.map((t) => ({ ...t, size: t.bold ? 12 : 10, color: t.bold ? COLORS.text : undefined })),
      right - box,
      y,
      box,
      { labelShare: 0.6 },
    );
    y += 10;
  }
  for (const s of d.sections) {
    y = pdf.ensureSpace(y, 60);
    y = pdf.text(s.heading, left, y, width, { weight: "bold", size: 11 }) + 4;
    if (s.table)
      y =
        pdf.table(
          s.table.columns,
          s.table.rows.map((cells) => ({ cells })),
          y,
        ) + 8;
    for (const p of s.paragraphs ?? []) {
      y = pdf.ensureSpace(y, pdf.heightOf(p, width, { size: 9.5 }));
      y = pdf.text(p, left, y, width, { size: 9.5, color: COLORS.muted }) + 4;
    }
    y += 8;
  }

  pdf.footers((page, count) => ({
    left: d.footer,
    right: d.pageLabel.replace("{{page}}", String(page)).replace("{{count}}", String(count)),
  }));
  return pdf;
}

/** Renders one of the invoice's documents to a PDF file in memory. */
export function renderInvoiceDocument(data: InvoiceDocumentData): Promise<Buffer> {
  return build(data).toBuffer();
}
