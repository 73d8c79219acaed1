// The boleto as a PDF (GET /api/payment/{paymentId}/boleto.pdf, issue 12 §2): beneficiary, payer with CPF/CNPJ,
// amount, due date, the typed line and the barcode printed as Interleaved 2 of 5 bars drawn as rectangles
// (itfWidths, app/common/payments/boleto.ts), labelled test mode when the sandbox issued it. Labels arrive
// translated in the data (the `sandbox` namespace), so this renderer needs no namespace of its own.
import { formatBoletoLine, itfWidths } from "#common/payments/boleto";
import type { SiteLang } from "#common/i18n";
import { COLORS, Pdf } from "./document";

export interface BoletoPdfData {
  lang: SiteLang;
  testMode: boolean;
  beneficiary: string;
  payerName: string;
  /** "CPF 529.982.247-25" */
  payerTaxId: string;
  amount: string;
  dueOn: string;
  issuedOn: string;
  ourNumber: string;
  line: string;
  barcode: string;
  labels: {
    title: string;
    testMode: string;
    beneficiary: string;
    payer: string;
    amount: string;
    dueOn: string;
    issuedOn: string;
    ourNumber: string;
    line: string;
    instructions: string;
  };
}

/** Part of the cache key of rendered boletos: raise it with any change to the layout. */
export const BOLETO_LAYOUT_VERSION = 1;

/** Draws the ITF barcode of `digits`, `height` points tall, starting at (x, y), `narrow` points per narrow module. */
function itf(pdf: Pdf, digits: string, x: number, y: number, narrow: number, height: number): void {
  const doc = pdf.doc;
  doc.save();
  let at = x;
  itfWidths(digits, 3).forEach((w, i) => {
    // Even positions are bars, odd positions spaces.
    if (i % 2 === 0) doc.rect(at, y, w * narrow, height);
    at += w * narrow;
  });
  doc.fill("#000000");
  doc.restore();
}

function build(d: BoletoPdfData): Pdf {
  const l = d.labels;
  const pdf = new Pdf({ lang: d.lang, title: `${l.title} ${d.ourNumber}`, author: d.beneficiary, subject: l.title, keywords: d.line });
  const { left, contentWidth: width } = pdf;
  let y = 56;
  y = pdf.text(`${l.title} — ${d.beneficiary}`, left, y, width, { weight: "bold", size: 16, color: COLORS.brand }) + 8;
  if (d.testMode) {
    pdf.doc.save().rect(left, y, width, 22).fill("#fff3cd").restore();
    pdf.text(l.testMode, left + 8, y + 6, width - 16, { weight: "bold", size: 10, color: "#7a5a00" });
    y += 32;
  }
  y =
    pdf.keyValues(
      [
        { label: l.beneficiary, value: d.beneficiary },
        { label: l.payer, value: `${d.payerName}${d.payerTaxId ? ` — ${d.payerTaxId}` : ""}` },
        { label: l.amount, value: d.amount, bold: true },
        { label: l.dueOn, value: d.dueOn, bold: true },
        { label: l.issuedOn, value: d.issuedOn },
        { label: l.ourNumber, value: d.ourNumber },
      ],
      left,
      y,
      width,
      { labelShare: 0.3, valueAlign: "left" },
    ) + 14;
  pdf.rule(y);
  y += 12;
  y = pdf.text(l.line, left, y, width, { size: 9, color: COLORS.muted }) + 4;
  y = pdf.text(formatBoletoLine(d.line), left, y, width, { weight: "bold", size: 13 }) + 14;
  // FEBRABAN: the bars of a 44-digit barcode are about 103 mm long and 13 mm tall.
  const narrow = 292 / itfWidths(d.barcode, 3).reduce((s, w) => s + w, 0);
  itf(pdf, d.barcode, left, y, narrow, 37);
  y += 37 + 6;
  y = pdf.text(d.barcode, left, y, width, { size: 8, color: COLORS.muted }) + 14;
  pdf.text(l.instructions, left, y, width, { size: 9.5, color: COLORS.muted });
  return pdf;
}

export function renderBoleto(data: BoletoPdfData): Promise<Buffer> {
  return build(data).toBuffer();
}
