// The certificate as a PDF (GET /api/certificate/{code}/pdf): data gathered here, drawn by server/pdf/certificate.ts.
// Rendering takes a few hundred milliseconds with CJK fonts, so a PDF is rendered once per code and version of
// the certificate (its updated_at) and kept in the shared cache, like price quotes (server/order-form/quote.ts).
// The QR code and the printed address lead to the verification page on the researcher's own localisation site
// (mailLinkBase: never the request's Host).
import { fail, ok, type Result } from "#common/result";
import { isSiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { AppContext } from "../context";
import { localizationTimeZone } from "../config";
import { fixedT } from "../i18n";
import { mailLinkBase } from "../mail";
import { CERTIFICATE_LAYOUT_VERSION, type CertificateData } from "../pdf/certificate";
import { PDF_BUSY_RETRY_SECONDS, PdfPoolBusyError, PdfRenderError } from "../pdf/pool";
import { formatCertificateCode } from "./issue";
import type { CertificateRecord } from "./lookup";

export const CERTIFICATE_PDF_CACHE_SECONDS = 60 * 60;

/** Renders in flight in this process, by cache key: concurrent views of one certificate render it once. */
const rendering = new Map<string, Promise<Buffer>>();

/** What the PDF of a certificate prints. */
export async function certificatePdfData(app: AppContext, record: CertificateRecord): Promise<CertificateData> {
  const lang = isSiteLang(record.lang) ? record.lang : "en";
  const owner = await app.db.selectFrom("users").select("localization").where("id", "=", record.ownerUserId).executeTakeFirst();
  const snapshot = await app.config.snapshot();
  const base = await mailLinkBase(app, owner?.localization ?? null);
  const t = fixedT(lang, "order");
  return {
    lang,
    company: { name: snapshot.config.companyShortName, website: snapshot.config.website },
    title: record.title,
    authors: record.authors,
    services: record.services.map((key) => t(key)),
    issuedAt: new Date(record.issuedAt),
    code: formatCertificateCode(record.code),
    verifyUrl: `${base}${paths.certificateVerifyCode(lang, record.code)}`,
    files: record.files,
    timeZone: localizationTimeZone(snapshot.localizations, owner?.localization ?? ""),
  };
}

/**
 * The PDF of a certificate. Error: `certificate-not-viewable` (no authors yet: spec 2 §8, "Please include the
 * title and author(s) that you would like displayed on your certificate.").
 */
export async function certificatePdf(app: AppContext, record: CertificateRecord): Promise<Result<Buffer>> {
  if (!record.viewable) return fail("certificate-not-viewable");
  const key = `certificate-pdf:${record.code}:v${CERTIFICATE_LAYOUT_VERSION}:${Date.parse(record.updatedAt)}`;
  const cached = await app.cache.getJson<string>(key).catch(() => undefined);
  if (typeof cached === "string") return ok(Buffer.from(cached, "base64"));
  let pending = rendering.get(key);
  if (!pending) {
    // Drawn in the PDF pool's worker threads, off the event loop (ADR 028).
    pending = certificatePdfData(app, record)
      .then((data) => app.pdf.render("certificate", data))
      .then(async (pdf) => {
        await app.cache.setJson(key, pdf.toString("base64"), CERTIFICATE_PDF_CACHE_SECONDS).catch(() => undefined);
        setTimeout(() => rendering.delete(key), 5_000).unref();
        return pdf;
      })
      .catch((error: unknown) => {
        rendering.delete(key);
        throw error;
      });
    rendering.set(key, pending);
  }
  try {
    return ok(await pending);
  } catch (error) {
    // A full queue, a render that timed out or a worker that died: 503 with a retry hint, never a 500.
    if (error instanceof PdfPoolBusyError || error instanceof PdfRenderError)
      return fail("service-unavailable", {
        retryAfterSeconds: error instanceof PdfPoolBusyError ? error.retryAfterSeconds : PDF_BUSY_RETRY_SECONDS,
      });
    throw error;
  }
}
