// PDFs of the portal (ADR 007): price quotes now; the building blocks in document.ts serve invoices
// and editing certificates later.
export { renderPriceQuote, writePriceQuote, type PriceQuoteData } from "./price-quote";
export { Pdf, COLORS, PAGE, type PdfMeta, type TableColumn, type TableRow, type TextStyle } from "./document";
export { familiesFor, pickFamily, fontPath, type FontFamily, type FontWeight } from "./fonts";
export { pdfT, PDF_RESOURCES, type PdfT } from "./labels";
