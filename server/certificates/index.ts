// Editing certificates (issue 11 §6, spec 2 §2 "Certificates"). The public face of the area: issuing (staff,
// from the console), codes, lookup by code (rate limited), the owner's title and authors, the check of a
// delivered file against the recorded SHA-256, and the PDF. ADR 033.
export { CERTIFICATE_CODE_ALPHABET, formatCertificateCode, issueCertificate, newCertificateCode, normalizeCertificateCode } from "./issue";
export {
  CERTIFICATE_LIMIT_DEFAULTS,
  certificateDownloadAvailable,
  certificateForOrder,
  certificateTimeZone,
  findCertificateByCode,
  lookupCertificate,
  ownCertificate,
  publicCertificate,
  type CertificateRecord,
  type CertificateView,
} from "./lookup";
export { saveCertificateDetails } from "./save";
export { CHECK_FILE_MAX_BYTES, checkDeliveredFile, hashUpload, matchCertifiedFile, type FileCheck } from "./check-file";
export { certificatePdf, certificatePdfData } from "./pdf";
