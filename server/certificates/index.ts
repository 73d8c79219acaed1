// Editing certificates (issue 11 §6, spec 2 §2 "Certificates"). The public face of the area: issuing (staff,
// from the console), codes, and (later in this module) lookup, verification, editing and the PDF.
export { CERTIFICATE_CODE_ALPHABET, formatCertificateCode, issueCertificate, newCertificateCode, normalizeCertificateCode } from "./issue";
