// Zod schemas shared by client validation and server actions. Messages are translation keys.
import { validatePhone } from "./phone";
import { z } from "zod";

export const loginSchema = z.object({
  email: z
    .string({ error: "auth:login.errors.emailAddressInvalidFormat" })
    .trim()
    .email({ error: "auth:login.errors.emailAddressInvalidFormat" })
    .max(254, { error: "auth:login.errors.emailAddressInvalidFormat" }),
  password: z.string({ error: "auth:login.errors.passwordRequired" }).min(1, { error: "auth:login.errors.passwordRequired" }).max(1024),
  redirect: z.string().optional(),
  origin: z.string().optional(),
});

export const emailOnlySchema = z.object({
  email: loginSchema.shape.email,
});

const E = (key: string) => ({ error: `auth:register.errors.${key}` });

export const checkEmailSchema = z.object({
  intent: z.literal("check-email"),
  email: loginSchema.shape.email,
  redirect: z.string().optional(),
  origin: z.string().optional(),
});

export interface SchemaCountry {
  iso2: string;
  phoneMin: number;
  phoneMax: number;
}

/** Stage two of registration. `countries` adds the phone-length rule of the chosen calling code. */
export function registerSchema(countries: SchemaCountry[] = []) {
  return z
    .object({
      intent: z.literal("register"),
      email: loginSchema.shape.email,
      password: z.string(E("password-too-short")).min(8, E("password-too-short")).max(128, E("password-too-long")),
      firstName: z.string(E("first-name-required")).trim().min(1, E("first-name-required")).max(100, E("name-too-long")),
      lastName: z.string(E("last-name-required")).trim().min(1, E("last-name-required")).max(100, E("name-too-long")),
      countryCode: z.string(E("country-code-required")).length(2, E("country-code-required")),
      phoneNumber: z.string(E("contact-number-required")).trim(),
      country: z.string(E("country-required")).length(2, E("country-required")),
      currency: z.string(E("currency-required")).length(3, E("currency-required")),
      language: z.enum(["en", "cn", "jp", "br", "es"], E("language-required")),
      optinToMarketing: z.boolean().default(false),
      agreeToTOS: z.literal(true, E("terms-required")),
      institution: z.string().trim().max(200, E("institution-too-long")).optional(),
      foundUs: z.string().max(60).optional(),
      redirect: z.string().optional(),
      origin: z.string().optional(),
    })
    .superRefine((value, ctx) => {
      const error = validatePhone(value.phoneNumber, countries.find((c) => c.iso2 === value.countryCode));
      // Without the country list (client before data) only the generic rules apply.
      if (error && (countries.length || error !== "contact-number-validation")) {
        ctx.addIssue({ code: "custom", path: ["phoneNumber"], message: `auth:register.errors.${error}` });
      }
    });
}
