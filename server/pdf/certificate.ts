// The editing certificate (issue 11 §6, spec 2 §2 "Certificates", GET /api/certificate/{code}/pdf): the company,
// the researcher's title and authors, the services certified, the date, the verification code with the address
// of the verification page and a QR code of that address, and the delivered files with their SHA-256, in the
// certificate's language with CJK fonts (labels from the `certificate` object of locales/{locale}/pdf.json).
import QRCode from "qrcode";
import { formatDate } from "#common/format";
import type { SiteLang } from "#common/i18n";
import { COLORS, Pdf } from "./document";
import { pdfT } from "./labels";

export interface CertificateData {
  lang: SiteLang;
  company: { name: string; website?: string | null };
  title: string;
  authors: string;
  /** Already translated. */
  services: string[];
  issuedAt: Date;
  /** As printed: "ABCD-EFGH-JKLM-NPQR". */
  code: string;
  verifyUrl: string;
  files: { name: string; sizeBytes: number; sha256: string }[];
  timeZone?: string;
}

/**
 * Part of the cache key of rendered certificates (server/certificates/pdf.ts): raise it with any change to the
 * layout, so a cached PDF of the old layout is not served after a deploy.
 */
export const CERTIFICATE_LAYOUT_VERSION = 1;

function size(bytes: number, lang: SiteLang): string {
  const units = ["B", "KB", "MB", "GB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${new Intl.NumberFormat(lang === "en" ? "en-US" : undefined, { maximumFractionDigits: u ? 1 : 0 }).format(n)} ${units[u]}`;
}

/** Draws the QR code of `text` as vector squares, `width` points wide, at (x, y). */
function qr(pdf: Pdf, text: string, x: number, y: number, width: number): void {
  const code = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = code.modules.size;
  const quiet = 2;
  const cell = width / (n + 2 * quiet);
  const doc = pdf.doc;
  doc.save();
  doc.rect(x, y, width, width).fill("#ffffff");
  for (let row = 0; row < n; row++)
    for (let col = 0; col < n; col++)
      if (code.modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell + 0.05, cell + 0.05);
  doc.fill(COLORS.text);
  doc.restore();
}

function build(c: CertificateData): Pdf {
  const t = pdfT(c.lang);
  const heading = t("certificate.title");
  const pdf = new Pdf({ lang: c.lang, title: `${heading} ${c.code}`, author: c.company.name, subject: heading, keywords: c.code });
  const { left, contentWidth: width } = pdf;
  const doc = pdf.doc;

  // A frame around the page.
  doc
    .save()
    .rect(24, 24, doc.page.width - 48, doc.page.height - 48)
    .lineWidth(2)
    .strokeColor(COLORS.brand)
    .stroke()
    .restore();
  doc
    .save()
    .rect(30, 30, doc.page.width - 60, doc.page.height - 60)
    .lineWidth(0.5)
    .strokeColor(COLORS.brand)
    .stroke()
    .restore();

  let y = 64;
  y = pdf.text(c.company.name, left, y, width, { weight: "bold", size: 16, color: COLORS.brand, align: "center" }) + 18;
  y = pdf.text(heading, left, y, width, { weight: "bold", size: 28, align: "center" }) + 22;
  y = pdf.text(t("certificate.certifies"), left, y, width, { size: 11, color: COLORS.muted, align: "center" }) + 10;
  y = pdf.text(c.title, left + 20, y, width - 40, { weight: "bold", size: 16, align: "center" }) + 10;
  y = pdf.text(t("certificate.by"), left, y, width, { size: 11, color: COLORS.muted, align: "center" }) + 6;
  y = pdf.text(c.authors, left + 20, y, width - 40, { size: 13, align: "center" }) + 16;
  y = pdf.text(t("certificate.edited", { company: c.company.name }), left + 20, y, width - 40, { size: 11, align: "center" }) + 6;
  for (const service of c.services) y = pdf.text(service, left + 20, y, width - 40, { weight: "bold", size: 11, align: "center" }) + 2;
  y += 14;
  y = pdf.text(t("certificate.statement"), left + 30, y, width - 60, { size: 9.5, color: COLORS.muted, align: "center" }) + 18;

  // Date, code and where to verify (left); the QR code of that address (right).
  const qrWidth = 104;
  const boxTop = y;
  const textWidth = width - qrWidth - 20;
  const rows = [
    { label: t("certificate.date"), value: formatDate(c.issuedAt, c.lang, c.timeZone ?? "UTC") },
    { label: t("certificate.code"), value: c.code, bold: true },
    { label: t("certificate.verifyAt"), value: c.verifyUrl },
  ];
  y = pdf.keyValues(rows, left, y, textWidth, { labelShare: 0.3, valueAlign: "left" });
  y = pdf.text(t("certificate.verifyHint"), left, y + 2, textWidth, { size: 8.5, color: COLORS.muted }) + 4;
  qr(pdf, c.verifyUrl, left + width - qrWidth, boxTop, qrWidth);
  y = Math.max(y, boxTop + qrWidth) + 16;

  // The delivered files and their fingerprints.
  if (c.files.length) {
    y = pdf.ensureSpace(y, 60);
    y = pdf.text(t("certificate.files"), left, y, width, { weight: "bold", size: 10 }) + 4;
    y = pdf.table(
      [
        { header: t("certificate.fileName"), share: 34 },
        { header: t("certificate.fileSize"), share: 12, align: "right" },
        { header: "SHA-256", share: 54 },
      ],
      c.files.map((f) => ({ cells: [f.name, size(f.sizeBytes, c.lang), f.sha256] })),
      y,
      { size: 7.5 },
    );
  }

  pdf.footers(() => ({
    left: `${t("certificate.code")} ${c.code}${c.company.website ? ` · ${c.company.website}` : ""}`,
    right: formatDate(c.issuedAt, c.lang, c.timeZone ?? "UTC"),
  }));
  return pdf;
}

/** Renders the certificate to a PDF file in memory. */
export function renderCertificate(data: CertificateData): Promise<Buffer> {
  return build(data).toBuffer();
}
