// Zod schemas shared by client validation and server actions. Messages are translation keys.
// zod/mini keeps the browser bundle small (the full zod API costs ~35 KB gzipped on every form page).
import * as z from "zod/mini";
import "../validation-messages";
import { validatePhone } from "../phone";
import { isValidOrcid } from "../accounts/orcid";

const msg = (key: string) => ({ error: key });
const EMAIL_INVALID = "auth:login.errors.emailAddressInvalidFormat";

// The key's last segment is the API's error code (`password-required`, issue 8: one function, errorCode).
const PASSWORD_REQUIRED = "auth:login.errors.password-required";

/** The one e-mail rule of the portal (pages, API bodies, domain checks). */
export const emailField = z.string(msg(EMAIL_INVALID)).check(z.trim(), z.maxLength(254, msg(EMAIL_INVALID)), z.email(msg(EMAIL_INVALID)));

export const loginSchema = z.object({
  email: emailField,
  password: z.string(msg(PASSWORD_REQUIRED)).check(z.minLength(1, msg(PASSWORD_REQUIRED)), z.maxLength(1024)),
  redirect: z.optional(z.string()),
  origin: z.optional(z.string()),
});

export const emailOnlySchema = z.object({ email: emailField });

const E = (key: string) => msg(`auth:register.errors.${key}`);

export const checkEmailSchema = z.object({
  intent: z.literal("check-email"),
  email: emailField,
  redirect: z.optional(z.string()),
  origin: z.optional(z.string()),
});

export interface SchemaCountry {
  iso2: string;
  phoneMin: number;
  phoneMax: number;
}

export const passwordField = z
  .string(E("password-too-short"))
  .check(z.minLength(8, E("password-too-short")), z.maxLength(128, E("password-too-long")));

/** A person's first or last name (registration and the account details): required, at most 100 characters. */
export const nameField = (required: string) =>
  z.string(E(required)).check(z.trim(), z.minLength(1, E(required)), z.maxLength(100, E("name-too-long")));

/** Optional free text: trimmed, at most `max` characters (longer is `tooLong`, a translated message). */
export const optionalTextField = (max: number, tooLong = "auth:register.errors.field-too-long") =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, msg(tooLong))));

const ORCID_INVALID = msg("account:details.errors.orcidInvalid");

/** An ORCID iD with a correct check digit (issue 9 §3.15); "" means none. */
export const orcidField = z.optional(
  z.string().check(
    z.trim(),
    z.maxLength(19, ORCID_INVALID),
    z.refine((v) => v === "" || isValidOrcid(v), ORCID_INVALID),
  ),
);

/** A second e-mail address; "" means none. */
export const secondaryEmailField = z.optional(z.union([z.literal(""), emailField]));

/** Stage two of registration. `countries` adds the phone-length rule of the chosen calling code. */
export function registerSchema(countries: SchemaCountry[] = []) {
  return z
    .object({
      intent: z.literal("register"),
      email: emailField,
      password: passwordField,
      firstName: nameField("first-name-required"),
      lastName: nameField("last-name-required"),
      countryCode: z.string(E("country-code-required")).check(z.length(2, E("country-code-required"))),
      phoneNumber: z.string(E("contact-number-required")).check(z.trim()),
      country: z.string(E("country-required")).check(z.length(2, E("country-required"))),
      currency: z.string(E("currency-required")).check(z.length(3, E("currency-required"))),
      language: z.enum(["en", "cn", "jp", "br", "es"], E("language-required")),
      optinToMarketing: z._default(z.boolean(), false),
      agreeToTOS: z.literal(true, E("terms-required")),
      institution: z.optional(z.string().check(z.trim(), z.maxLength(200, E("institution-too-long")))),
      foundUs: optionalTextField(60),
      // The optional fields of spec 1 §3's registration form (issue 9 §3.15).
      title: optionalTextField(40),
      workplace: optionalTextField(200),
      orcid: orcidField,
      secondaryEmail: secondaryEmailField,
      otherFoundUs: optionalTextField(200),
      redirect: z.optional(z.string()),
      origin: z.optional(z.string()),
      // The referral link's code (issue 25 item 3), carried through both stages in a hidden field: never refused (an
      // unknown or overlong one is ignored by the referrals area, which reads its first 64 characters).
      referralCode: z.optional(z.string().check(z.trim())),
    })
    .check(
      z.superRefine((value, ctx) => {
        const error = validatePhone(
          value.phoneNumber,
          countries.find((c) => c.iso2 === value.countryCode),
        );
        // Without the country list only the generic rules apply.
        if (error && (countries.length || error !== "contact-number-validation")) {
          ctx.addIssue({ code: "custom", path: ["phoneNumber"], message: `auth:register.errors.${error}` });
        }
      }),
    );
}

/** Set a new password with a one-time link (the page takes the link from its URL, the API from the body). */
export const resetPasswordSchema = z.object({ password: passwordField });

/** POST /api/auth/reset-password. A missing or non-text link part is an invalid link, not a schema error. */
export const resetPasswordApiSchema = z.object({
  oneTimeLoginHash: z.catch(z.string(), ""),
  userIdentity: z.catch(z.string(), ""),
  password: passwordField,
});

/** Starting a WeChat QR sign-in (JSON or form, every field optional; values that are not text are ignored). */
const optionalText = z.catch(z.optional(z.string()), undefined);
export const wechatStartSchema = z.object({ redirect: optionalText, origin: optionalText, lang: optionalText });

/** The sandbox "phone" types the code shown beside the QR image (scan), then confirms or cancels with it (ADR 024). */
export const wechatConfirmSchema = z.object({
  intent: z.enum(["scan", "confirm", "cancel"]),
  code: z
    .string({ error: "wechat:confirm.codeRequired" })
    .check(z.trim(), z.minLength(1, { error: "wechat:confirm.codeRequired" }), z.maxLength(32, { error: "wechat:confirm.wrongCode" })),
});

export type LoginFields = z.input<typeof loginSchema>;
export type EmailFields = z.input<typeof emailOnlySchema>;
export type CheckEmailFields = z.input<typeof checkEmailSchema>;
export type WechatStartFields = z.output<typeof wechatStartSchema>;
export type WechatConfirmFields = z.output<typeof wechatConfirmSchema>;
export type RegisterFields = z.input<ReturnType<typeof registerSchema>>;
