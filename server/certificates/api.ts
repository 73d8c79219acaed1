// Certificates over the API (issue 11 §6, spec 2 §7). Reading by code is open to anyone holding the code and
// rate limited per client address (lookup.ts); saving the title and authors is the owner's. The delivered files
// open with the code only while the order's own files are downloadable (ADR 033).
import { errorStatus, fail, ok, type Err } from "#common/result";
import { paths } from "#common/paths";
import { certificateDetailsBody, certificatePdfQuery } from "#common/certificate/schemas";
import { endpoint, reply, type ApiReply, type EndpointTable } from "../http/api/endpoint";
import { multipartBody } from "../http/multipart";
import type { Scope } from "../scope";
import type { SiteLang } from "#common/i18n";
import { fixedT } from "../i18n";
import { listDeliverables } from "../orders/deliverables";
import { deliverableFile, deliverablesListing, deliverablesZip } from "../orders/deliverables-api";
import { checkDeliveredFile } from "./check-file";
import { formatCertificateCode } from "./issue";
import { certificateDownloadAvailable, lookupCertificate, publicCertificate, type CertificateRecord } from "./lookup";
import { certificatePdf } from "./pdf";
import { saveCertificateDetails } from "./save";

/**
 * The certificate as the API shows it (spec 2 §3: code, title, authors, issuedOn, externalId), its services by
 * name in the caller's language (the language cookie, then Accept-Language), never catalogue keys (issue 22).
 */
export function certificateJson(record: CertificateRecord, lang: SiteLang) {
  const view = publicCertificate(record);
  const t = fixedT(lang, "catalogue");
  return {
    ...view,
    services: view.services.map((key) => t(key)),
    formattedCode: formatCertificateCode(view.code),
    issuedOn: view.issuedAt,
    pdfPath: paths.api.certificatePdf(view.code),
  };
}

/**
 * The files a certificate opens: the order's current deliverables that the certificate certifies (by SHA-256),
 * once the order's files are downloadable. Errors: those of lookupCertificate, `download-not-available`.
 */
export async function certificateDownloads(scope: Scope, code: string) {
  const found = await lookupCertificate(scope, code);
  if (!found.ok) return found;
  if (!(await certificateDownloadAvailable(scope, found.value))) return fail("download-not-available");
  const certified = new Set(found.value.files.map((f) => f.sha256));
  const deliverables = (await listDeliverables(scope.app.db, found.value.orderId)).filter((d) => certified.has(d.sha256));
  return ok({ certificate: found.value, deliverables });
}

/** An error as the API answers it: over the lookup limit, 429 with Retry-After. */
function refused(r: Err): Err | ApiReply {
  if (r.error !== "too-many-requests") return r;
  const seconds = Number(r.details?.retryAfterSeconds ?? 600);
  return reply(
    { error: r.error, retryAfterSeconds: seconds },
    { status: errorStatus(r.error), headers: { "Retry-After": String(seconds) } },
  );
}

export const certificatesApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/certificate/:code",
    auth: "optional",
    summary: "A certificate by its verification code (anyone; rate limited per address; unknown: 404 certificate-verification-error).",
    async handler({ scope, params }) {
      const r = await lookupCertificate(scope, params.code);
      if (!r.ok) return refused(r);
      return ok({ certificate: certificateJson(r.value, scope.lang) });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/certificate/:code/pdf",
    auth: "optional",
    query: certificatePdfQuery,
    summary: "The certificate as a PDF (?display=inline to embed); 409 certificate-not-viewable until it has authors.",
    async handler({ scope, params, query }) {
      const r = await lookupCertificate(scope, params.code);
      if (!r.ok) return refused(r);
      const pdf = await certificatePdf(scope.app, r.value);
      if (!pdf.ok) return pdf;
      const name = `certificate-${formatCertificateCode(r.value.code)}.pdf`;
      return new Response(new Uint8Array(pdf.value), {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `${query.display === "inline" ? "inline" : "attachment"}; filename="${name}"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/certificate/:code/deliverables",
    auth: "optional",
    summary: "The certified delivered files (key, name, path, size, sha256), companyName, externalId, zipPath; 403 until downloadable.",
    async handler({ scope, params }) {
      const r = await certificateDownloads(scope, params.code);
      if (!r.ok) return refused(r);
      const { code, externalId } = r.value.certificate;
      return deliverablesListing(
        scope.app,
        externalId,
        r.value.deliverables,
        (key) => paths.api.certificateDeliverable(code, key),
        paths.api.certificateDeliverablesZip(code),
      );
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/certificate/:code/deliverables.zip",
    auth: "optional",
    summary: "The certified delivered files in one zip, streamed (as the order's Download All).",
    async handler({ scope, params, req }) {
      const r = await certificateDownloads(scope, params.code);
      if (!r.ok) return refused(r);
      return deliverablesZip(scope.app, r.value.certificate.externalId, r.value.deliverables, req.method);
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/certificate/:code/deliverables/:key",
    auth: "optional",
    summary: "One certified delivered file, streamed as an attachment.",
    async handler({ scope, params, req }) {
      const r = await certificateDownloads(scope, params.code);
      if (!r.ok) return refused(r);
      return deliverableFile(scope.app, r.value.deliverables, params.key, req.method);
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/certificate/:code/check-file",
    auth: "optional",
    body: "stream",
    summary: "Is this the delivered file? Multipart field `file`, hashed (SHA-256) as it arrives and not kept: {match, sha256, sizeBytes}.",
    async handler({ scope, params, webRequest }) {
      const r = await checkDeliveredFile(scope, multipartBody(webRequest()), params.code);
      if (!r.ok) return refused(r);
      return ok({ match: r.value.match, sha256: r.value.sha256, sizeBytes: r.value.sizeBytes, name: r.value.name });
    },
  }),
  endpoint({
    method: "PUT",
    path: "/api/certificate/save/:code",
    auth: "user",
    body: certificateDetailsBody,
    summary: "Saves the title and authors of the user's certificate (both required): {certificateDetails, messages}.",
    async handler({ scope, params, body }) {
      const r = await saveCertificateDetails(scope, params.code, body);
      if (!r.ok) return r;
      return ok({ certificateDetails: certificateJson(r.value, scope.lang), messages: ["certificate-details-updated"] });
    },
  }),
];
