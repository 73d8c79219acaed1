// Account forms (details, password). Messages are translation keys.
import * as z from "zod/mini";

const optional = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max)));

export const detailsSchema = z.object({
  intent: z.literal("details"),
  title: optional(40),
  firstName: z
    .string({ error: "auth:register.errors.first-name-required" })
    .check(z.trim(), z.minLength(1, { error: "auth:register.errors.first-name-required" }), z.maxLength(100)),
  lastName: z
    .string({ error: "auth:register.errors.last-name-required" })
    .check(z.trim(), z.minLength(1, { error: "auth:register.errors.last-name-required" }), z.maxLength(100)),
  institution: optional(200),
  orcid: optional(19),
  secondaryEmail: optional(254),
  countryCode: z.string({ error: "auth:register.errors.country-code-required" }),
  phoneNumber: z.string({ error: "auth:register.errors.contact-number-required" }).check(z.trim()),
  country: z.string({ error: "auth:register.errors.country-required" }),
  language: z.string({ error: "auth:register.errors.language-required" }),
  optinToMarketing: z._default(z.boolean(), false),
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

export type DetailsFields = z.input<typeof detailsSchema>;
export type PasswordChangeFields = z.input<typeof passwordChangeSchema>;
