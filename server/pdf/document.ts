// PDF building blocks (pdfkit). One font covers Latin, Chinese and Japanese: Noto Sans SC from an npm
// package, subset into each PDF, so a fresh `npm ci` renders every language (ADR 009).
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";

const require = createRequire(import.meta.url);

export const FONT_REGULAR = require.resolve("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf");
export const FONT_BOLD = require.resolve("@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf");

export function newDocument(meta: { title: string; author: string; lang: string }): PDFKit.PDFDocument {
  const doc = new PDFDocument({ size: "A4", margin: 50, bufferPages: true, lang: meta.lang, info: { Title: meta.title, Author: meta.author } });
  doc.registerFont("body", FONT_REGULAR);
  doc.registerFont("bold", FONT_BOLD);
  doc.font("body");
  return doc;
}

export function toBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

/** Page numbers ("1 / 2") in every page footer, written once all pages exist. */
export function numberPages(doc: PDFKit.PDFDocument, footer: string) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.height - 40;
    doc.font("body").fontSize(8).fillColor("#666").text(`${footer} · ${i + 1} / ${range.count}`, 50, bottom, { width: doc.page.width - 100, align: "center", lineBreak: false });
  }
}
