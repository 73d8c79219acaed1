// Forms and API bodies of certificates (issue 11 §6, spec 2 §7): the researcher's title and authors, the
// verification code. The rules (required, lengths) are checked by server/certificates/save.ts, which the page
// and the API share; these schemas only read the fields.
import * as z from "zod/mini";

export const CERTIFICATE_TITLE_MAX = 300;
export const CERTIFICATE_AUTHORS_MAX = 1000;

const text = z.optional(z.string());

/** PUT /api/certificate/save/{code} and the panel's form: `title`, `authors` (`externalId`, `code` ignored). */
export const certificateDetailsBody = z.object({ title: text, authors: text });
export type CertificateDetails = z.output<typeof certificateDetailsBody>;

/** The panel's form posts where to go back to (a path of this portal). */
export const certificateEditForm = z.object({ title: text, authors: text, redirect: text });

/** ?code= of the verification page. */
export const verifyQuery = z.object({ code: text });

/** ?display=inline: the PDF embedded on the page rather than downloaded. */
export const certificatePdfQuery = z.object({ display: z.optional(z.string()) });
