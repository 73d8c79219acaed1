// The signed-in user's account: the user view (spec 1 §3 "User (core fields)"),
// cached 10 minutes and invalidated on every change; details and password updates.
import type { AppContext } from "../context";
import { hashPassword, verifyPassword } from "./password";
import { createSession, revokeAllSessions } from "../auth/session";
import { listAddresses, type AddressView } from "./addresses";
import { validatePhone } from "#common/phone";
import { isSiteLang } from "#common/i18n";

export const USER_CACHE_SECONDS = 600;
const userKey = (id: number) => `user:v1:${id}`;

export interface UserView {
  identity: string;
  active: boolean;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  title: string | null;
  institution: string | null;
  orcid: string | null;
  secondaryEmail: string | null;
  foundUs: string | null;
  phoneNumber: string | null;
  countryCode: { value: string | null; isoCode: string | null };
  country: string | null;
  countryId: number | null;
  city: string | null;
  currencyIso: string;
  currency: { sign: string; shortName: string; numDecimals: number; exchangeRate: number };
  language: string;
  localization: string;
  customerSince: string;
  addresses: AddressView[];
  optinToMarketing: boolean;
  creditNotesLocked: boolean;
  excludeFromDelinquentCheck: boolean;
  watchlistNotification: boolean;
  languageAssessmentEnabled: boolean;
  hasLocalIdentity: boolean;
  changePasswordEnabled: boolean;
  isStaff: boolean;
  isAdmin: boolean;
  missingFields: string[];
  shouldDisplayCountryModal: boolean;
  wfoeMigrationStatus: {
    inMigratingGroup: boolean;
    acceptedTermsOfService: boolean;
    migrated: boolean;
    migrationEligible: boolean;
  };
  numberOfOrders: number;
}

async function loadUserView(ctx: AppContext, userId: number): Promise<UserView | null> {
  const u = await ctx.db
    .selectFrom("users as u")
    .leftJoin("countries as c", "c.id", "u.country_id")
    .innerJoin("currencies as cur", "cur.iso_code", "u.currency_iso")
    .selectAll("u")
    .select(["c.iso2 as country_iso2", "cur.sign as currency_sign", "cur.num_decimals as currency_decimals"])
    .select((eb) =>
      eb
        .selectFrom("exchange_rates as r")
        .select("r.rate")
        .whereRef("r.iso_code", "=", "u.currency_iso")
        .orderBy("r.effective_on", "desc")
        .limit(1)
        .as("currency_rate"),
    )
    .where("u.id", "=", userId)
    .executeTakeFirst();
  if (!u) return null;
  const phoneCountry = u.phone_country_code
    ? await ctx.db.selectFrom("countries").select("iso2").where("calling_code", "=", u.phone_country_code).orderBy("id").executeTakeFirst()
    : undefined;
  const missing: string[] = [];
  if (!u.country_id) missing.push("country");
  if (!u.phone_number) missing.push("phoneNumber");
  if (!u.first_name) missing.push("firstName");
  if (!u.last_name) missing.push("lastName");
  const currencyIso = u.currency_iso.trim();
  return {
    identity: u.identity,
    active: u.active,
    firstName: u.first_name,
    lastName: u.last_name,
    fullName: `${u.first_name} ${u.last_name}`.trim(),
    email: u.email,
    title: u.title,
    institution: u.institution,
    orcid: u.orcid,
    secondaryEmail: u.secondary_email,
    foundUs: u.found_us,
    phoneNumber: u.phone_number,
    countryCode: { value: u.phone_country_code, isoCode: phoneCountry?.iso2 ?? null },
    country: u.country_iso2 ?? null,
    countryId: u.country_id,
    city: u.city,
    currencyIso,
    currency: {
      sign: u.currency_sign,
      shortName: currencyIso,
      numDecimals: u.currency_decimals,
      exchangeRate: Number(u.currency_rate ?? 1),
    },
    language: u.language,
    localization: u.localization,
    customerSince: new Date(u.created_at).toISOString(),
    addresses: await listAddresses(ctx.db, userId),
    optinToMarketing: u.optin_to_marketing,
    creditNotesLocked: u.credit_notes_locked,
    excludeFromDelinquentCheck: u.exclude_from_delinquent_check,
    watchlistNotification: u.watchlist_notification,
    languageAssessmentEnabled: u.language_assessment_enabled,
    hasLocalIdentity: Boolean(u.password_hash),
    changePasswordEnabled: Boolean(u.password_hash),
    isStaff: u.is_staff,
    isAdmin: u.is_admin,
    missingFields: missing,
    shouldDisplayCountryModal: !u.country_id,
    wfoeMigrationStatus: {
      inMigratingGroup: u.wfoe_in_migrating_group,
      acceptedTermsOfService: Boolean(u.wfoe_accepted_tos_at),
      migrated: u.wfoe_migrated,
      migrationEligible: u.wfoe_in_migrating_group && !u.wfoe_migrated,
    },
    // Orders arrive with the order form; until then nobody has any.
    numberOfOrders: 0,
  };
}

/** The user view, from the 10-minute cache when present. */
export async function getUserView(ctx: AppContext, userId: number): Promise<UserView | null> {
  const cached = await ctx.cache.getJson<UserView>(userKey(userId)).catch(() => undefined);
  if (cached) return cached;
  const view = await loadUserView(ctx, userId);
  if (view) await ctx.cache.setJson(userKey(userId), view, USER_CACHE_SECONDS).catch(() => undefined);
  return view;
}

export async function invalidateUser(ctx: AppContext, userId: number): Promise<void> {
  await ctx.cache.del(userKey(userId));
}

export interface DetailsInput {
  title?: string;
  firstName: string;
  lastName: string;
  institution?: string;
  orcid?: string;
  secondaryEmail?: string;
  countryCode: string;
  phoneNumber: string;
  country: string;
  language: string;
  optinToMarketing: boolean;
}

export type DetailsResult = { ok: true; user: UserView } | { ok: false; fieldErrors: Record<string, string[]> };

const ORCID_RE = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

export async function updateDetails(ctx: AppContext, userId: number, input: DetailsInput): Promise<DetailsResult> {
  const errors: Record<string, string[]> = {};
  const err = (k: string, key: string) => (errors[k] = [key]);
  if (!input.firstName?.trim()) err("firstName", "auth:register.errors.first-name-required");
  if (!input.lastName?.trim()) err("lastName", "auth:register.errors.last-name-required");
  const [country, codeCountry] = await Promise.all([
    ctx.db
      .selectFrom("countries")
      .select(["id", "iso2", "localization"])
      .where("iso2", "=", input.country ?? "")
      .executeTakeFirst(),
    ctx.db
      .selectFrom("countries")
      .select(["iso2", "calling_code", "phone_min", "phone_max"])
      .where("iso2", "=", input.countryCode ?? "")
      .executeTakeFirst(),
  ]);
  if (!country) err("country", "auth:register.errors.country-required");
  const phoneError = validatePhone(
    input.phoneNumber,
    codeCountry ? { iso2: codeCountry.iso2, phoneMin: codeCountry.phone_min, phoneMax: codeCountry.phone_max } : undefined,
  );
  if (phoneError) err("phoneNumber", `auth:register.errors.${phoneError}`);
  if (!isSiteLang(input.language)) err("language", "auth:register.errors.language-required");
  if (input.orcid && !ORCID_RE.test(input.orcid.trim())) err("orcid", "account:details.errors.orcidInvalid");
  if (input.secondaryEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.secondaryEmail.trim()))
    err("secondaryEmail", "auth:login.errors.emailAddressInvalidFormat");
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  await ctx.db
    .updateTable("users")
    .set({
      title: input.title?.trim() || null,
      first_name: input.firstName.trim().slice(0, 100),
      last_name: input.lastName.trim().slice(0, 100),
      institution: input.institution?.trim().slice(0, 200) || null,
      orcid: input.orcid?.trim() || null,
      secondary_email: input.secondaryEmail?.trim() || null,
      phone_country_code: codeCountry!.calling_code,
      phone_number: input.phoneNumber.trim(),
      country_id: country!.id,
      language: input.language,
      optin_to_marketing: input.optinToMarketing,
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .execute();
  await invalidateUser(ctx, userId);
  return { ok: true, user: (await getUserView(ctx, userId))! };
}

export type PasswordChangeResult = { ok: true; token: string } | { ok: false; fieldErrors: Record<string, string[]> };

/** Changes the password and signs the user out everywhere; the caller's browser gets a fresh session. */
export async function changePassword(
  ctx: AppContext,
  userId: number,
  input: { currentPassword: string; newPassword: string; ip: string; userAgent?: string | null },
): Promise<PasswordChangeResult> {
  const user = await ctx.db.selectFrom("users").select(["password_hash"]).where("id", "=", userId).executeTakeFirst();
  if (!user || !(await verifyPassword(user.password_hash, input.currentPassword)))
    return { ok: false, fieldErrors: { currentPassword: ["account:password.errors.currentWrong"] } };
  if (input.newPassword.length < 8) return { ok: false, fieldErrors: { newPassword: ["auth:register.errors.password-too-short"] } };
  if (input.newPassword.length > 128) return { ok: false, fieldErrors: { newPassword: ["auth:register.errors.password-too-long"] } };
  const hash = await hashPassword(input.newPassword);
  await ctx.db
    .updateTable("users")
    .set({ password_hash: hash, password_changed_at: new Date(), updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
  await revokeAllSessions(ctx.db, userId);
  await invalidateUser(ctx, userId);
  return { ok: true, token: await createSession(ctx.db, userId, { ip: input.ip, userAgent: input.userAgent }) };
}

/** Number of orders (GET /api/users/{id}/order-count). Orders arrive with the order form. */
export async function orderCount(ctx: AppContext, userId: number): Promise<number> {
  const view = await getUserView(ctx, userId);
  return view?.numberOfOrders ?? 0;
}

export async function findUserByIdentity(ctx: AppContext, identity: string) {
  if (!/^[0-9a-f-]{36}$/i.test(identity)) return undefined;
  return ctx.db.selectFrom("users").select(["id", "identity"]).where("identity", "=", identity).executeTakeFirst();
}

export async function setCountry(ctx: AppContext, userId: number, iso2: string): Promise<boolean> {
  const country = await ctx.db.selectFrom("countries").select(["id"]).where("iso2", "=", iso2).executeTakeFirst();
  if (!country) return false;
  await ctx.db.updateTable("users").set({ country_id: country.id, updated_at: new Date() }).where("id", "=", userId).execute();
  await invalidateUser(ctx, userId);
  return true;
}
