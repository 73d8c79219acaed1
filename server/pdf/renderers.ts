// The PDFs the render pool (pool.ts, ADR 028) can make, by kind. This module is loaded inside the pool's
// worker threads (render-worker.mjs), never needed on the web process's event loop: each renderer takes
// plain data (structured clone: Dates stay Dates, Buffers arrive as Buffers) and resolves to the file.
// A new document is one line here: `certificate: renderCertificate,` with its import.
import { familiesFor, fontBuffer, pickFamily } from "./fonts";
import { renderPriceQuote } from "./price-quote";
import { renderCertificate } from "./certificate";
import { renderBoleto } from "./boleto";
import { renderInvoiceDocument } from "./invoice-document";
import { renderReferralFlyer } from "./referral-flyer";

export const PDF_RENDERERS = {
  "price-quote": renderPriceQuote,
  certificate: renderCertificate,
  boleto: renderBoleto,
  "invoice-document": renderInvoiceDocument,
  "referral-flyer": renderReferralFlyer,
} satisfies PdfRenderers;

/** A table of renderers (also the shape of the test tables a pool can be started with). */
export type PdfRenderers = Record<string, (data: never) => Promise<Buffer> | Buffer>;

/** Reads the font files and the glyph tables once per worker, before its first render. */
export function warmUp(): void {
  for (const family of familiesFor("en")) for (const weight of ["regular", "bold"] as const) fontBuffer(family, weight);
  // No font has this character: both families' glyph tables are parsed once, here.
  pickFamily("\u{10FFFD}", familiesFor("en"));
}
