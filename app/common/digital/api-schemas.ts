// Schemas of the digital editing / translation API (spec 3 §7, issue 24). Isomorphic (zod/mini).
import * as z from "zod/mini";
import { paymentBodyFields, paymentBodyShape, type PaymentFields } from "#common/payments/schemas";
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from "./constants";

/** Pages past this are not reached by clicking: a bad link, refused with 400. */
export const DIGITAL_PAGE_MAX = 100_000;
/** The most identities one poll may name (a page's worth). */
export const DIGITAL_POLL_MAX = 30;

const page = z.optional(
  z.pipe(
    z.string().check(z.regex(/^\d{1,6}$/, { error: "digital:errors.page-invalid" })),
    z.pipe(
      z.transform((v: string) => Number(v)),
      z
        .number()
        .check(
          z.minimum(1, { error: "digital:errors.page-invalid" }),
          z.maximum(DIGITAL_PAGE_MAX, { error: "digital:errors.page-invalid" }),
        ),
    ),
  ),
);

/** GET /api/digital-edit/search: `page`, or `identities` (read from the raw query string by the endpoint). */
export const digitalEditSearchQuery = z.object({
  page,
  identities: z.optional(z.string().check(z.maxLength(4000))),
  "identities[]": z.optional(z.string().check(z.maxLength(4000))),
});

/** GET /api/digital-order/search: `page`, `type` (editing | translation), or `identities`. */
export const digitalOrderSearchQuery = z.object({
  page,
  type: z.optional(z.enum(["editing", "translation"], { error: "digital:errors.type-invalid" })),
  identities: z.optional(z.string().check(z.maxLength(4000))),
  "identities[]": z.optional(z.string().check(z.maxLength(4000))),
});

/**
 * POST /api/digital-edit/payment and /api/digital-translation/payment: the payment form's body (as
 * /api/prepay/payment takes it) with `availableDigitalPurchaseIdentity` and, for a package, an optional `language`.
 */
export const digitalPaymentBody = z.pipe(
  z.looseObject({
    ...paymentBodyShape,
    availableDigitalPurchaseIdentity: z.optional(z.nullable(z.string().check(z.maxLength(40)))),
    language: z.optional(z.nullable(z.string().check(z.maxLength(10)))),
  }),
  z.transform(
    (b): { fields: PaymentFields; availablePurchaseIdentity: string; language: TranslationLanguage | undefined; badLanguage: boolean } => {
      const { fields } = paymentBodyFields(b);
      const language = typeof b.language === "string" && b.language.trim() ? b.language.trim() : undefined;
      const known = language === undefined || (TRANSLATION_LANGUAGES as readonly string[]).includes(language);
      return {
        fields,
        availablePurchaseIdentity: typeof b.availableDigitalPurchaseIdentity === "string" ? b.availableDigitalPurchaseIdentity.trim() : "",
        language: known ? (language as TranslationLanguage | undefined) : undefined,
        badLanguage: !known,
      };
    },
  ),
);

/** PUT /api/staff/users/{id}/digital-editing-trial: turn the researcher's digital editing trial on or off. */
export const digitalEditingTrialBody = z.object({ enabled: z.boolean({ error: "digital:errors.enabled-required" }) });
