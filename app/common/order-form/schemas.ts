// Schemas of the order-form API bodies and queries (spec 1 §7). zod/mini keeps the browser bundle small.
//
// The bodies are deliberately lenient about *values*: the domain functions check them and answer every
// field error of a step at once (e.g. `wordCount` and `files` together), and ownership (404) and a placed
// form (409) are answered before any value is looked at. A schema here only fixes the shape a handler
// reads: which fields exist and the aliases the spec allows (`language` or `languageId`).
import * as z from "zod/mini";
import { PROJECT_TITLE_MAX, WORD_COUNT_MAX } from "./constants";
import { orderSearchSchema } from "../orders/search";
import { nullableSerialId, optionalSerialId } from "../integers";

/** A field error's message: a translation key of the order namespace. */
const E = (code: string) => ({ error: `order:errors.${code}` });

const anything = z.optional(z.unknown());
const flag = z.optional(z.unknown());
/**
 * A field that both a page's checkbox and a JSON boolean post: true only when ticked (conform turns "on"
 * into true on the pages) or `true` in JSON; any other value is false, as the API always read it.
 */
const checkbox = z.optional(z.catch(z.boolean(), false));

/**
 * Ids bounded to their `serial` columns (ADR 044): lenient about absence (the domain reports a missing one with
 * the step's other fields), strict about what can never be an id (2^53 + 1, 1.5, "abc"), which is a 400 here.
 */
const languageRef = optionalSerialId(E("value-required"));
const areaOfStudyRef = optionalSerialId(E("area-of-study-error"));

/** The spec's two names of the manuscript language (`language` or `languageId`) as `languageId`. */
function oneLanguage<T extends { language?: unknown; languageId?: unknown }>({ language, languageId, ...rest }: T) {
  return { ...rest, languageId: language ?? languageId };
}

/** PUT {id}/basic-details and the get-started page: the goal, files later, word count, language. */
export const basicDetailsBody = z.pipe(
  z.object({
    customerGoal: anything,
    uploadFilesLater: checkbox,
    wordCount: anything,
    language: languageRef,
    languageId: languageRef,
  }),
  z.transform(oneLanguage),
);
export type BasicDetails = z.output<typeof basicDetailsBody>;

/** PUT {id}/rework-basic-details and the rework start page (the goal is always a manuscript). */
export const reworkBasicDetailsBody = z.pipe(
  z.object({
    uploadFilesLater: checkbox,
    wordCount: anything,
    language: languageRef,
    languageId: languageRef,
    instructions: anything,
  }),
  z.transform(oneLanguage),
);
export type ReworkBasicDetails = z.output<typeof reworkBasicDetailsBody>;

/** PUT {id}/selected-service: services by slug or identity, and the delivery tier. */
export const selectedServiceBody = z.object({
  serviceIdentities: anything,
  serviceSlugs: anything,
  declineEditing: flag,
  deliveryTier: anything,
  rush: flag,
});

/** PUT {id}/referral-emails: an array of text, or one comma-separated string (a boolean or a number is a 400). */
export const referralEmailsBody = z.object({
  referralEmails: z.optional(z.union([z.string(), z.array(z.string()).check(z.maxLength(100))], E("referral-email-validation-error"))),
});

export const bundleInterestBody = z.object({ interested: flag });
export const bundleQuestionsBody = z.object({ answers: anything });
export const bundleChoiceBody = z.object({
  bundleId: nullableSerialId(E("make-selection")),
  id: nullableSerialId(E("make-selection")),
  delivery: anything,
  rush: flag,
  express: flag,
});

/** PUT {id}/manuscript-details and the word-count form of the services page. */
export const manuscriptDetailsBody = z.pipe(
  z.object({ wordCount: anything, language: languageRef, languageId: languageRef }),
  z.transform(oneLanguage),
);
export type ManuscriptDetails = z.output<typeof manuscriptDetailsBody>;
export const updateWordCountBody = z.object({ newWordCount: anything });
export const deliveryTierBody = z.object({ deliveryTier: anything, rushed: flag });
export const stepBody = z.object({ step: anything });
export const quantityBody = z.object({ quantity: anything });
export const journalBody = z.object({ name: anything, url: anything });

/** PUT {id}/details: the details step (the journal as one object), or `currencyIso` alone (spec 1 §7). */
export const detailsBody = z.pipe(
  z.object({
    currencyIso: anything,
    projectTitle: anything,
    areaOfStudyId: areaOfStudyRef,
    styleOfEnglish: anything,
    journal: anything,
  }),
  z.transform(({ journal, ...rest }) => {
    const j = journal !== null && typeof journal === "object" ? (journal as Record<string, unknown>) : {};
    return { ...rest, journalName: j.name, journalUrl: j.url };
  }),
);
export type Details = z.output<typeof detailsBody>;

/** What placing an order takes, from the API body or the payment page. */
function placeOrderInput(p: { paymentMethodId?: unknown; purchaseOrder?: unknown; acceptTerms?: boolean }) {
  return {
    paymentMethodId: Number(p.paymentMethodId),
    purchaseOrder: p.purchaseOrder === undefined || p.purchaseOrder === null ? null : String(p.purchaseOrder),
    acceptTerms: p.acceptTerms === true,
  };
}

export type PlaceOrderInput = ReturnType<typeof placeOrderInput>;

export const paymentBody = z.pipe(
  z.object({
    paymentMethodId: anything,
    purchaseOrder: anything,
    acceptedTermsAndConditions: checkbox,
  }),
  z.transform(({ acceptedTermsAndConditions, ...rest }) => placeOrderInput({ ...rest, acceptTerms: acceptedTermsAndConditions })),
);

/** Calls without a body still read it: a malformed JSON body is a 400 as on every other call. */
export const emptyBody = z.object({});

export const binPriceQuery = z.object({ newWordCount: z.optional(z.string()) });

/** GET /api/price-quote/{estimateId}/pdf: `display=inline` for the embed on the quote page. */
export const quotePdfQuery = z.object({ display: z.optional(z.string()) });

/** GET /api/order/search: the dashboard's filter (app/common/orders/search.ts; a bad date is a 400 `date-invalid`). */
export const orderSearchQuery = orderSearchSchema;

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

// ---- Field rules of the steps (spec 1 §4, §5) ----------------------------------------------------
// The domain checks each field with these and reports every failing field of a step at once (a missing
// file beside a bad word count); messages are translation keys of the order namespace.

const trimmed = z.transform((v: unknown) => (v === undefined || v === null ? "" : String(v).trim()));
const RANGE = E("word-count-range-error");

/** A word count: required, a whole number from 1 to WORD_COUNT_MAX. */
export const wordCountField = z.pipe(
  z.pipe(trimmed, z.string().check(z.minLength(1, E("value-required")))),
  z.pipe(
    z.transform(Number),
    z.number(RANGE).check(
      z.refine((n) => Number.isInteger(n), RANGE),
      z.gte(1, RANGE),
      z.lte(WORD_COUNT_MAX, RANGE),
    ),
  ),
);

/** A per-unit service's quantity (figures, tables): a whole number from 1 to 25. */
export const QUANTITY_MAX = 25;
const QUANTITY = E("quantity-range-error");
export const quantityField = z.pipe(
  z.transform(Number),
  z.number(QUANTITY).check(
    z.refine((n) => Number.isInteger(n), QUANTITY),
    z.gte(1, QUANTITY),
    z.lte(QUANTITY_MAX, QUANTITY),
  ),
);

/** The project title: required, at most PROJECT_TITLE_MAX characters. */
export const projectTitleField = z.pipe(
  trimmed,
  z.string().check(z.minLength(1, E("project-title-required")), z.maxLength(PROJECT_TITLE_MAX, E("project-title-too-long"))),
);

/** A journal's address: optional; when given, http(s) and at most 255 characters. */
export const journalUrlField = z.pipe(
  trimmed,
  z.string().check(z.refine((url) => url === "" || (/^https?:\/\//i.test(url) && url.length <= 255), E("journal-url-invalid"))),
);

/** What the editor should look at on a re-edit: optional, at most 2,000 characters. */
export const REWORK_INSTRUCTIONS_MAX = 2000;
export const reworkInstructionsField = z.pipe(
  z.transform((v: unknown) => (typeof v === "string" ? v.trim() : "")),
  z.string().check(z.maxLength(REWORK_INSTRUCTIONS_MAX, E("rework-instructions-too-long"))),
);

/** One field checked with its rule: the parsed value, or the translation key of the first failure. */
export function checkField<T>(schema: z.ZodMiniType<T>, value: unknown): { ok: true; value: T } | { ok: false; error: string } {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: r.error.issues[0]?.message ?? "order:errors.value-required" };
}

// ---- Page forms -------------------------------------------------------------------------------------

/** Text fields of a page form: an empty field is absent (conform). */
const text = z.optional(z.string());
/** A checkbox group or repeated hidden field: one value or several, as a list. */
const list = z.pipe(
  anything,
  z.transform((v) => (Array.isArray(v) ? v.map(String) : v === undefined || v === "" ? [] : String(v).split(",")).filter(Boolean)),
);
/** `quantity.<service>` fields (figures, tables), which conform nests as an object, as numbers. */
const quantities = z.pipe(
  z.optional(z.record(z.string(), z.unknown())),
  z.transform((q) => Object.fromEntries(Object.entries(q ?? {}).map(([slug, n]) => [slug, Number(n)])) as Record<string, number>),
);

/** The files of a step with uploads: `intent=upload` keeps what was sent, `removeFile` takes one off. */
export const fileActionForm = z.object({ intent: text, removeFile: text });

/** A services page's service card toggle (stays on the page). */
export const serviceToggleForm = z.object({ toggle: z.string(), quantity: quantities });
/** A services page's delivery tier button; a tier not offered falls back to standard. */
export const deliveryTierForm = z.object({
  tier: z.pipe(
    anything,
    z.transform((v) => (v === "rush" || v === "express" ? v : ("standard" as const))),
  ),
});
/** A services page's Next: the selected services and "decline editing". */
export const servicesForm = z.object({ services: list, declineEditing: checkbox, quantity: quantities });

/** The additional-services page: add-ons (a card's toggle stays on the page) and interest in bundles. */
export const additionalServicesForm = z.pipe(
  z.object({ addOns: list, quantity: quantities, bundleInterest: checkbox, toggle: text }),
  z.transform(({ addOns, quantity, bundleInterest, toggle }) => ({
    addOnSlugs: addOns,
    quantities: quantity,
    bundleInterest: bundleInterest === true,
    toggle,
  })),
);

/** The details page: what PUT {id}/details gives the domain, with the journal in two fields. */
export const detailsForm = z.object({
  projectTitle: text,
  areaOfStudyId: areaOfStudyRef,
  styleOfEnglish: text,
  journalName: text,
  journalUrl: text,
});

/** The payment page: place the order (the API's body names the terms `acceptedTermsAndConditions`). */
export const paymentForm = z.pipe(
  z.object({ paymentMethodId: anything, purchaseOrder: text, acceptTerms: checkbox }),
  z.transform((p) => placeOrderInput(p)),
);

/**
 * The bundle questions. Their fields are read flat (a checkbox group's values joined by commas): conform
 * would nest `figures.count` under `figures` and lose the `figures` checkbox beside it.
 */
export const bundleQuestionsForm = z.pipe(
  z.record(z.string(), z.string()),
  z.transform((f) => {
    const count = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : Number(v));
    return {
      goals: { choices: (f.goals ?? "").split(",").filter(Boolean) },
      figures: { on: f.figures === "on", count: count(f["figures.count"]) },
      tables: { on: f.tables === "on", count: count(f["tables.count"]) },
      journal: { journal: f.journal?.trim() || null },
    };
  }),
);

/** A bundle card's Choose (with its delivery, `delivery.<bundle>`), or Skip. */
export const bundleChoiceForm = z.pipe(
  z.object({ intent: text, bundleId: text, delivery: anything }),
  z.transform(({ intent, bundleId, delivery }) => {
    const tier = delivery !== null && typeof delivery === "object" ? (delivery as Record<string, unknown>)[bundleId ?? ""] : delivery;
    return { bundleId: intent === "skip" ? null : Number(bundleId), delivery: tier === undefined ? undefined : String(tier) };
  }),
);

/** The "My Order" panel's promo form: apply a code, or remove it; then back where the visitor was. */
export const promoForm = z.object({ intent: text, code: text, redirect: text });

/** The summary's currency picker (anonymous visitors). */
export const visitorCurrencyForm = z.object({ currencyIso: text, redirect: text });
export type VisitorCurrency = z.output<typeof visitorCurrencyForm>;

/** The price quote page: back to the order (`convert`), or e-mail the quote. */
export const priceQuoteForm = z.object({ intent: text, estimateId: text });

/** The duplicate-order screen: place the order anyway, or ask support about the earlier one. */
export const duplicateChoiceForm = z.object({ choice: z.enum(["new-order", "question"], E("make-selection")) });
export type DuplicateChoice = z.output<typeof duplicateChoiceForm>["choice"];
