// Schemas of the order-form API bodies and queries (spec 1 §7). zod/mini keeps the browser bundle small.
//
// The bodies are deliberately lenient about *values*: the domain functions check them and answer every
// field error of a step at once (e.g. `wordCount` and `files` together), and ownership (404) and a placed
// form (409) are answered before any value is looked at. A schema here only fixes the shape a handler
// reads: which fields exist and the aliases the spec allows (`language` or `languageId`).
import * as z from "zod/mini";

const anything = z.optional(z.unknown());
const flag = z.optional(z.unknown());

/** PUT {id}/basic-details: the get-started step. */
export const basicDetailsBody = z.object({
  customerGoal: anything,
  uploadFilesLater: flag,
  wordCount: anything,
  language: anything,
  languageId: anything,
});

/** PUT {id}/rework-basic-details: the rework start screen (the goal is always a manuscript). */
export const reworkBasicDetailsBody = z.object({
  uploadFilesLater: flag,
  wordCount: anything,
  language: anything,
  languageId: anything,
  instructions: anything,
});

/** PUT {id}/selected-service: services by slug or identity, and the delivery tier. */
export const selectedServiceBody = z.object({
  serviceIdentities: anything,
  serviceSlugs: anything,
  declineEditing: flag,
  deliveryTier: anything,
  rush: flag,
});

/** PUT {id}/referral-emails: an array, or one comma-separated string. */
export const referralEmailsBody = z.object({ referralEmails: anything });

export const bundleInterestBody = z.object({ interested: flag });
export const bundleQuestionsBody = z.object({ answers: anything });
export const bundleChoiceBody = z.object({
  bundleId: anything,
  id: anything,
  delivery: anything,
  rush: flag,
  express: flag,
});

export const manuscriptDetailsBody = z.object({ wordCount: anything, language: anything, languageId: anything });
export const updateWordCountBody = z.object({ newWordCount: anything });
export const deliveryTierBody = z.object({ deliveryTier: anything, rushed: flag });
export const stepBody = z.object({ step: anything });
export const quantityBody = z.object({ quantity: anything });
export const journalBody = z.object({ name: anything, url: anything });

/** PUT {id}/details: the details form, or `currencyIso` alone (spec 1 §7). */
export const detailsBody = z.object({
  currencyIso: anything,
  projectTitle: anything,
  areaOfStudyId: anything,
  styleOfEnglish: anything,
  journal: anything,
});

export const paymentBody = z.object({
  paymentMethodId: anything,
  purchaseOrder: anything,
  acceptedTermsAndConditions: flag,
});

/** Calls without a body still read it: a malformed JSON body is a 400 as on every other call. */
export const emptyBody = z.object({});

export const binPriceQuery = z.object({ newWordCount: z.optional(z.string()) });

/** GET /api/price-quote/{estimateId}/pdf: `display=inline` for the embed on the quote page. */
export const quotePdfQuery = z.object({ display: z.optional(z.string()) });

/** GET /api/order/search. */
export const orderSearchQuery = z.object({
  xid: z.optional(z.string()),
  orderTitle: z.optional(z.string()),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
  page: z.optional(z.string()),
});

/** GET /api/order/duplicate. */
export const duplicateQuery = z.object({ title: z._default(z.string(), "") });

/** Referral e-mails (spec 1 §5): 1 to 10 addresses in total, including those already on the form. */
export const REFERRAL_EMAILS_MAX = 10;

/** One referral address: the portal's one e-mail rule (zod's), at most 254 characters. */
export const referralEmail = z.string().check(z.maxLength(254), z.email());

/** The posted list (an array, or comma-separated text) as trimmed, lower-cased, non-empty entries. */
export function referralEntries(input: unknown): string[] {
  const list = Array.isArray(input) ? input : String(input ?? "").split(",");
  return list.map((e) => String(e).trim().toLowerCase()).filter(Boolean);
}
