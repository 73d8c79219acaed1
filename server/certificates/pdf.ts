// The certificate as a PDF (GET /api/certificate/{code}/pdf): data gathered here, drawn by server/pdf/certificate.ts.
// Rendering takes a few hundred milliseconds with CJK fonts, so a PDF is rendered once per code and version of
// the certificate (its updated_at) and kept in the shared cache, like price quotes (server/order-form/quote.ts).
// The QR code and the printed address lead to the verification page on the researcher's own localisation site
// (mailLinkBase: never the request's Host).
import { fail, type Result } from "#common/result";
import { isSiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { AppContext } from "../context";
import { fixedT } from "../i18n";
import { mailLinkBase } from "../mail";
import { CERTIFICATE_LAYOUT_VERSION, type CertificateData } from "../pdf/certificate";
import { cachedPdf } from "../pdf/cached";
import { formatCertificateCode } from "./issue";
import { certificateTimeZone, type CertificateRecord } from "./lookup";

export const CERTIFICATE_PDF_CACHE_SECONDS = 60 * 60;

/** What the PDF of a certificate prints. */
export async function certificatePdfData(app: AppContext, record: CertificateRecord): Promise<CertificateData> {
  const lang = isSiteLang(record.lang) ? record.lang : "en";
  const snapshot = await app.config.snapshot();
  const base = await mailLinkBase(app, record.ownerLocalization);
  const t = fixedT(lang, "order");
  return {
    lang,
    // The footer prints the address the certificate is verified at (PUBLIC_URL or the owner's site), not the
    // config `website`, which a fresh install leaves at 127.0.0.1:3000 (issue 22 item 2).
    company: { name: snapshot.config.companyShortName, website: new URL(base).host },
    title: record.title,
    authors: record.authors,
    services: record.services.map((key) => t(key)),
    issuedAt: new Date(record.issuedAt),
    code: formatCertificateCode(record.code),
    verifyUrl: `${base}${paths.certificateVerifyCode(lang, record.code)}`,
    files: record.files,
    timeZone: await certificateTimeZone(app, record),
  };
}

/**
 * The PDF of a certificate. Error: `certificate-not-viewable` (no authors yet: spec 2 §8, "Please include the
 * title and author(s) that you would like displayed on your certificate.").
 */
export async function certificatePdf(app: AppContext, record: CertificateRecord): Promise<Result<Buffer>> {
  if (!record.viewable) return fail("certificate-not-viewable");
  const key = `certificate-pdf:${record.code}:v${CERTIFICATE_LAYOUT_VERSION}:${Date.parse(record.updatedAt)}`;
  // Drawn in the PDF pool's worker threads, off the event loop (ADR 028).
  return cachedPdf(app, key, CERTIFICATE_PDF_CACHE_SECONDS, async () =>
    app.pdf.render("certificate", await certificatePdfData(app, record)),
  );
}
