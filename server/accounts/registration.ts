// Researcher registration (spec 1 §3 registration form, §4 "Registration", §5).
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { AppContext } from "../context";
import type { DB } from "../db";
import { hashPassword } from "./password";
import { createSession } from "./session";
import { rateLimit } from "../kernel/rate-limit";
import { listCountries, listCurrencies, registrationCurrencies } from "../kernel/reference";
import { isSiteLang } from "#common/i18n";
import { validatePhone } from "#common/phone";
import { researcherRegistered } from "./events";

export { validatePhone };

export async function researcherExists(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where(sql`lower(email)`, "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return Boolean(row);
}

/** Rate limit for the e-mail existence check (it would otherwise let anyone list our customers quickly). */
export async function allowExistenceCheck(ctx: AppContext, ip: string): Promise<boolean> {
  const limits = (await ctx.config.snapshot()).config.rateLimits;
  return (await rateLimit(ctx.cache, `exists:ip:${ip}`, limits.emailChecksPerHour, 3600)).allowed;
}

export interface RegistrationInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  countryCode: string; // iso2 of the calling-code country
  phoneNumber: string;
  country: string; // iso2
  currency: string;
  language: string;
  optinToMarketing: boolean;
  institution?: string;
  foundUs?: string;
  /** Optional fields of spec 1 §3's registration form ("" or absent: none). */
  title?: string;
  workplace?: string;
  orcid?: string;
  secondaryEmail?: string;
  otherFoundUs?: string;
  /** The referral link's code (issue 25 item 3): the referrals area records who referred. */
  referralCode?: string | null;
}

export type RegistrationResult =
  | { ok: true; userId: number; identity: string; token: string }
  | { ok: false; fieldErrors: Partial<Record<keyof RegistrationInput, string>> }
  | { ok: false; error: "too-many-attempts"; retryAfterSeconds: number };

type AccountResult = { ok: true; userId: number; identity: string } | Exclude<RegistrationResult, { ok: true }>;

/** A new researcher's account and its first session (the registration form and POST /api/auth/register). */
export async function registerResearcher(
  ctx: AppContext,
  input: RegistrationInput,
  meta: { ip: string; userAgent?: string | null; source?: string },
): Promise<RegistrationResult> {
  const r = await createResearcherAccount(ctx, input, meta);
  if (!r.ok) return r;
  const token = await createSession(ctx.db, r.userId, { ip: meta.ip, userAgent: meta.userAgent });
  return { ...r, token };
}

/** The account alone, after the rules of spec 1 §5; `isAdmin` offers every currency (spec 1 §6). */
export async function createResearcherAccount(
  ctx: AppContext,
  input: RegistrationInput,
  meta: {
    ip: string;
    userAgent?: string | null;
    /** An administrator registers the researcher (spec 1 §6): every currency is offered. */
    isAdmin?: boolean;
    source?: string;
  },
): Promise<AccountResult> {
  const [countries, currencies, snapshot] = await Promise.all([listCountries(ctx.db), listCurrencies(ctx.db), ctx.config.snapshot()]);
  const limit = await rateLimit(ctx.cache, `register:ip:${meta.ip}`, snapshot.config.rateLimits.registrationsPerHour, 3600);
  if (!limit.allowed) return { ok: false, error: "too-many-attempts", retryAfterSeconds: limit.retryAfterSeconds };
  const errors: Partial<Record<keyof RegistrationInput, string>> = {};
  const country = countries.find((c) => c.iso2 === input.country);
  const codeCountry = countries.find((c) => c.iso2 === input.countryCode);
  if (!country) errors.country = "country-required";
  const phoneError = validatePhone(input.phoneNumber, codeCountry);
  if (phoneError) errors.phoneNumber = phoneError;
  if (!registrationCurrencies(currencies, country?.iso2, meta.isAdmin).some((c) => c.isoCode === input.currency))
    errors.currency = "currency-not-available";
  if (!isSiteLang(input.language)) errors.language = "language-required";
  if (snapshot.config.institutionInfoMandatory && !input.institution?.trim()) errors.institution = "institution-required";
  if (await researcherExists(ctx.db, input.email)) errors.email = "email-already-exists";
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };

  const passwordHash = await hashPassword(input.password);
  const identity = randomUUID();
  try {
    const userId = await ctx.db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto("users")
        .values({
          identity,
          email: input.email.trim(),
          password_hash: passwordHash,
          first_name: input.firstName.trim(),
          last_name: input.lastName.trim(),
          institution: input.institution?.trim() || null,
          title: input.title?.trim() || null,
          workplace: input.workplace?.trim() || null,
          orcid: input.orcid?.trim() || null,
          secondary_email: input.secondaryEmail?.trim() || null,
          found_us: input.foundUs?.trim() || null,
          other_found_us: input.otherFoundUs?.trim() || null,
          phone_country_code: codeCountry!.callingCode,
          phone_number: input.phoneNumber.trim(),
          country_id: country!.id,
          currency_iso: input.currency,
          language: input.language,
          localization: country!.localization,
          optin_to_marketing: input.optinToMarketing,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // The signup-complete analytics event (spec 1 §4), recorded with the account in one transaction.
      await trx
        .insertInto("analytics_events")
        .values({
          user_id: user.id,
          name: "signup-complete",
          data: JSON.stringify({ source: meta.source ?? "form", foundUs: input.foundUs ?? null }),
        })
        .execute();
      // Who referred (issue 25): the referrals area's handler writes in this transaction.
      const referralCode = input.referralCode?.trim().slice(0, 64) || null;
      await researcherRegistered.emit(trx, { userId: user.id, referralCode, email: input.email.trim(), ip: meta.ip });
      return user.id;
    });
    return { ok: true, userId, identity };
  } catch (error) {
    // Two registrations of one address at the same moment: the unique index decides.
    if ((error as { code?: string }).code === "23505") return { ok: false, fieldErrors: { email: "email-already-exists" } };
    throw error;
  }
}
