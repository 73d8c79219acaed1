// Account forms and API bodies (details, password, addresses, the country prompt), parsed once at the edge
// by pages (app/lib/forms.server.ts) and the JSON API (server/accounts/api.ts) alike. Messages are
// translation keys. Rules that need the database (the country exists, the phone length of its calling
// code, the states of a country) are the domain's (server/accounts).
import * as z from "zod/mini";
import { serialIdOf } from "../integers";
import { nameField, optionalTextField, orcidField, secondaryEmailField } from "../auth/schemas";
import { SITE_LANGS } from "../i18n";
import { addressSchema } from "./address";

export { addressSchema, type AddressFields, type AddressInput } from "./address";

const R = (key: string) => ({ error: `auth:register.errors.${key}` });
const optional = (max: number) => optionalTextField(max);

/**
 * The fields of the account details form (spec 1 §2 "Account"). An empty ORCID or secondary e-mail means
 * none (API clients send "", the page sends nothing).
 */
const detailsFields = {
  title: optional(40),
  firstName: nameField("first-name-required"),
  lastName: nameField("last-name-required"),
  institution: optional(200),
  orcid: orcidField,
  secondaryEmail: secondaryEmailField,
  countryCode: z.string(R("country-code-required")),
  phoneNumber: z.string(R("contact-number-required")).check(z.trim()),
  country: z.string(R("country-required")),
  language: z.enum(SITE_LANGS, R("language-required")),
  optinToMarketing: z._default(z.boolean(), false),
};

/** The details form of the account page. */
export const detailsSchema = z.object({ intent: z.literal("details"), ...detailsFields });

/**
 * PUT /api/account/{identity}/update-details: the same fields; `countryCode` may come as the
 * `{ value, isoCode }` object the API answers with, `language` defaults to the user's own, and
 * `optinToMarketing` is true only when it is `true`.
 */
export const detailsBodySchema = z.object({
  ...detailsFields,
  countryCode: z.pipe(
    z.union([z.string(), z.object({ isoCode: z.optional(z.nullable(z.string())) })], R("country-code-required")),
    z.transform((v) => (typeof v === "string" ? v : (v.isoCode ?? ""))),
  ),
  language: z.optional(detailsFields.language),
  optinToMarketing: z._default(
    z.pipe(
      z.unknown(),
      z.transform((v) => v === true),
    ),
    false,
  ),
});

export const passwordChangeSchema = z.object({
  intent: z.literal("password"),
  currentPassword: z
    .string({ error: "auth:login.errors.passwordRequired" })
    .check(z.minLength(1, { error: "auth:login.errors.passwordRequired" })),
  newPassword: z
    .string({ error: "auth:register.errors.password-too-short" })
    .check(
      z.minLength(8, { error: "auth:register.errors.password-too-short" }),
      z.maxLength(128, { error: "auth:register.errors.password-too-long" }),
    ),
});

/**
 * An address as the API takes it: `country` may be the `{ value }` object the API answers with.
 */
export const addressBodySchema = z.pipe(
  z.transform((raw: unknown) => {
    if (!raw || typeof raw !== "object") return raw;
    const body = raw as Record<string, unknown>;
    const country = body.country && typeof body.country === "object" ? (body.country as { value?: unknown }).value : body.country;
    return { ...body, country };
  }),
  addressSchema,
);

/** The country prompt (page form and PUT /api/snid-account/update-country): an ISO code or a country id. */
export const countryPromptSchema = z.object({
  country: z.optional(z.string()),
  redirect: z.optional(z.string()),
});

/**
 * Anything but a string or a number is no country (the API then answers `country-required`). A number, or a
 * string of digits, is a country id and must fit its `serial` column (ADR 044): 2^53 + 1, 1.5 or 40 digits are
 * a 400 `invalid` on `id`, not a query PostgreSQL refuses.
 */
export const countryRefBodySchema = z.object({
  id: z.pipe(
    z.catch(z.optional(z.union([z.string(), z.number()])), undefined),
    z.optional(
      z.union([
        z.string().check(z.refine((s) => !/^\s*[+-]?[\d.eE+-]+\s*$/.test(s) || serialIdOf(s) !== null)),
        z.number().check(z.refine((n) => serialIdOf(n) !== null)),
      ]),
    ),
  ),
});

export const COUNTRY_PROMPT_STATUSES = ["dismissed", "updated", "pending"] as const;

/** POST /api/snid-account/country-update-status: an unknown status is the domain's `invalid-update-status`. */
export const countryPromptStatusBodySchema = z.object({
  updateStatus: z.catch(z.optional(z.enum(COUNTRY_PROMPT_STATUSES)), undefined),
});

export type DetailsFields = z.input<typeof detailsSchema>;
/** What the domain takes (server/accounts updateDetails): the parsed form without its intent. */
export type DetailsInput = Omit<z.output<typeof detailsSchema>, "intent">;
export type PasswordChangeFields = z.input<typeof passwordChangeSchema>;
export type PasswordChangeInput = Pick<z.output<typeof passwordChangeSchema>, "currentPassword" | "newPassword">;
export type CountryPromptInput = z.output<typeof countryPromptSchema>;
