// Building blocks for the portal's PDFs (price quotes now; invoices and editing certificates later):
// an A4 pdfkit document whose text helpers pick a font that has the glyphs, a table that continues on
// the next page with its header repeated, label/value rows, page footers with page numbers, and the
// two ways out (a Buffer, or piped to a Writable). ADR 007.
import type { Writable } from "node:stream";
import PDFDocument from "pdfkit";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { familiesFor, fontBuffer, normalizeSpaces, pickFamily, type FontFamily, type FontWeight } from "./fonts";

export const PAGE = { size: "A4" as const, margin: 50, bottom: 72 };
export const COLORS = { text: "#1a1a1a", muted: "#5c6670", brand: "#0b5d7a", rule: "#c9d1d9", headerFill: "#eef3f6" };

export interface TextStyle {
  weight?: FontWeight;
  size?: number;
  color?: string;
}

export interface PdfMeta {
  lang: SiteLang;
  title: string;
  author: string;
  subject?: string;
  keywords?: string;
}

/** An A4 document with the portal's fonts registered, page margins and metadata (Title, Author, /Lang). */
export class Pdf {
  readonly doc: PDFKit.PDFDocument;
  readonly lang: SiteLang;
  private readonly families: FontFamily[];
  private readonly registered = new Set<string>();

  constructor(meta: PdfMeta) {
    this.lang = meta.lang;
    this.families = familiesFor(meta.lang);
    this.doc = new PDFDocument({
      size: PAGE.size,
      margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.bottom },
      bufferPages: true,
      lang: LANG_TAG[meta.lang],
      displayTitle: true,
      info: { Title: meta.title, Author: meta.author, Subject: meta.subject, Keywords: meta.keywords, Creator: meta.author },
    });
    this.style("", {});
  }

  get left(): number {
    return this.doc.page.margins.left;
  }
  get right(): number {
    return this.doc.page.width - this.doc.page.margins.right;
  }
  get contentWidth(): number {
    return this.right - this.left;
  }
  /** Lowest y that content may reach on this page. */
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Sets font (one that has the glyphs of `text`), size and colour for what comes next. */
  style(text: string, { weight = "regular", size = 10, color = COLORS.text }: TextStyle): this {
    const family = pickFamily(text, this.families);
    const name = `${family}-${weight}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, fontBuffer(family, weight));
      this.registered.add(name);
    }
    this.doc.font(name).fontSize(size).fillColor(color);
    return this;
  }

  /** Height of `text` set in `width` with this style. */
  heightOf(text: string, width: number, style: TextStyle = {}): number {
    const s = normalizeSpaces(text);
    this.style(s, style);
    return this.doc.heightOfString(s, { width });
  }

  widthOf(text: string, style: TextStyle = {}): number {
    const s = normalizeSpaces(text);
    this.style(s, style);
    return this.doc.widthOfString(s);
  }

  /** Writes `text` at (x, y) in a box `width` wide; returns the y below it. */
  text(text: string, x: number, y: number, width: number, style: TextStyle & { align?: "left" | "right" | "center" } = {}): number {
    const s = normalizeSpaces(text);
    this.style(s, style);
    this.doc.text(s, x, y, { width, align: style.align ?? "left" });
    return this.doc.y;
  }

  /** Starts a new page when fewer than `height` points are left; returns the y to write at. */
  ensureSpace(y: number, height: number): number {
    if (y + height <= this.bottom) return y;
    this.doc.addPage();
    return this.doc.page.margins.top;
  }

  rule(y: number, { color = COLORS.rule, width = 0.75, x1 = this.left, x2 = this.right } = {}): void {
    this.doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke().restore();
  }

  /**
   * Label/value rows (e.g. quote number, dates; subtotal and total), labels left and values right in
   * a box from `x`, `width` wide. Returns the y below the last row.
   */
  keyValues(
    rows: { label: string; value: string; bold?: boolean; size?: number; color?: string }[],
    x: number,
    y: number,
    width: number,
    { labelShare = 0.5, valueAlign = "right" }: { labelShare?: number; valueAlign?: "left" | "right" } = {},
  ): number {
    const gap = 8;
    const labelWidth = width * labelShare - gap / 2;
    const valueWidth = width - labelWidth - gap;
    for (const row of rows) {
      const style: TextStyle = { weight: row.bold ? "bold" : "regular", size: row.size ?? 10, color: row.color };
      const h = Math.max(
        this.heightOf(row.label, labelWidth, { ...style, color: COLORS.muted }),
        this.heightOf(row.value, valueWidth, style),
      );
      y = this.ensureSpace(y, h);
      this.text(row.label, x, y, labelWidth, { ...style, color: row.color ?? COLORS.muted });
      this.text(row.value, x + labelWidth + gap, y, valueWidth, { ...style, align: valueAlign });
      y += h + 3;
    }
    return y;
  }

  /**
   * A table: header row on a tinted band, rows separated by rules, cells wrapped to their column;
   * a row that does not fit continues the table on the next page, header repeated. Column widths
   * are shares of the table width. Returns the y below the table.
   */
  table(columns: TableColumn[], rows: TableRow[], y: number, { x = this.left, width = this.contentWidth, size = 9.5 } = {}): number {
    const pad = 5;
    const total = columns.reduce((s, c) => s + c.share, 0);
    const widths = columns.map((c) => (c.share / total) * width);
    const xs = widths.map((_, i) => x + widths.slice(0, i).reduce((s, w) => s + w, 0));
    const rowHeight = (cells: string[], weight: FontWeight) =>
      Math.max(...cells.map((cell, i) => (cell ? this.heightOf(cell, widths[i] - 2 * pad, { weight, size }) : 0))) + 2 * pad;

    const header = (top: number): number => {
      const cells = columns.map((c) => c.header);
      const h = rowHeight(cells, "bold");
      this.doc.save().rect(x, top, width, h).fill(COLORS.headerFill).restore();
      cells.forEach((cell, i) =>
        this.text(cell, xs[i] + pad, top + pad, widths[i] - 2 * pad, {
          weight: "bold",
          size,
          color: COLORS.muted,
          align: columns[i].align,
        }),
      );
      return top + h;
    };

    const firstHeight = rows.length ? rowHeight(rows[0].cells, rows[0].bold ? "bold" : "regular") : 0;
    y = this.ensureSpace(
      y,
      rowHeight(
        columns.map((c) => c.header),
        "bold",
      ) + firstHeight,
    );
    y = header(y);
    for (const row of rows) {
      const weight: FontWeight = row.bold ? "bold" : "regular";
      const h = rowHeight(row.cells, weight);
      if (y + h > this.bottom) {
        this.doc.addPage();
        y = header(this.doc.page.margins.top);
      }
      row.cells.forEach((cell, i) => {
        if (cell) this.text(cell, xs[i] + pad, y + pad, widths[i] - 2 * pad, { weight, size, color: row.color, align: columns[i].align });
      });
      y += h;
      this.rule(y, { x1: x, x2: x + width, width: 0.5 });
    }
    return y;
  }

  /**
   * Writes a footer on every page once all pages exist: `left` text and `right` text (e.g. "Page 1
   * of 2") under a rule in the bottom margin.
   */
  footers(make: (page: number, count: number) => { left: string; right: string }): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const { left, right } = make(i - range.start + 1, range.count);
      const margins = this.doc.page.margins;
      const savedBottom = margins.bottom;
      margins.bottom = 0; // writing inside the bottom margin must not start a new page
      const y = this.doc.page.height - savedBottom + 26;
      this.rule(y - 6);
      const rightWidth = Math.min(this.widthOf(right, { size: 8 }) + 2, this.contentWidth / 3);
      this.text(left, this.left, y, this.contentWidth - rightWidth - 12, { size: 8, color: COLORS.muted });
      this.text(right, this.right - rightWidth, y, rightWidth, { size: 8, color: COLORS.muted, align: "right" });
      margins.bottom = savedBottom;
    }
  }

  /** Ends the document and collects it. */
  toBuffer(): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.doc.on("data", (c: Buffer) => chunks.push(c));
      this.doc.on("end", () => resolve(Buffer.concat(chunks)));
      this.doc.on("error", reject);
      this.doc.end();
    });
  }

  /** Ends the document into `out` (an HTTP response, a file); resolves when `out` has finished. */
  pipeTo(out: Writable): Promise<void> {
    return new Promise((resolve, reject) => {
      out.once("finish", resolve);
      out.once("error", reject);
      this.doc.once("error", reject);
      this.doc.pipe(out);
      this.doc.end();
    });
  }
}

export interface TableColumn {
  header: string;
  /** Share of the table width (relative to the other columns). */
  share: number;
  align?: "left" | "right" | "center";
}

export interface TableRow {
  cells: string[];
  bold?: boolean;
  color?: string;
}
