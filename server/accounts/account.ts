// The signed-in user's account: the user view (spec 1 §3 "User (core fields)"),
// cached 10 minutes and invalidated on every change; details and password updates.
import { sql } from "kysely";
import { personName } from "#common/names";
import { serialIdOf } from "#common/integers";
import type { AppContext } from "../context";
import { checkCurrentPassword, hashPassword, revokeResetLinks } from "./password";
import { createSession, revokeAllSessions } from "./session";
import { listAddresses, type AddressView } from "./addresses";
import { phoneCountryFor, validatePhone } from "#common/phone";
import { homeDirectory } from "#common/auth/redirect";
import { localizationForHost } from "../config";
import { getCatalogue, toCurrency } from "../catalogue";
import type { CurrencyFormat } from "#common/format";
import { otherSiteHost } from "./localization";
import { fail, invalid, ok, type FieldErrors, type Result } from "#common/result";
import type { COUNTRY_PROMPT_STATUSES, DetailsInput, PasswordChangeInput } from "#common/accounts/schemas";
import { listCountries } from "../kernel/reference";
import type { Scope } from "../scope";
import { actingUser, invalidateUser, USER_CACHE_SECONDS, userKey } from "./user-cache";
import { auditImpersonated } from "../kernel/audit";

export { invalidateUser, USER_CACHE_SECONDS } from "./user-cache";

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
  otherFoundUs: string | null;
  workplace: string | null;
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
    optedIn: boolean;
    optedOut: boolean;
    hasUnpaidInvoices: boolean;
    noticeSkipped: boolean;
  };
  numberOfOrders: number;
  /**
   * Fields of spec 1 §3 "User" whose areas (credits, prepay, fapiao, saved cards, rewards, referrals,
   * preferred groups, testimonials, loyalty) have not landed yet: present with the honest value of a portal
   * without them — empty lists, zero, false, null (docs/api.md, "Account"). Each area fills its own.
   */
  credits: never[];
  prepayments: never[];
  fapiaos: never[];
  paymentMethods: never[];
  /** The user's active preferred group (issue 25, spec 3 §3 "Home dashboard"): code, membershipDisplayed… */
  preferredGroup: {
    code: string;
    name: string;
    membershipDisplayed: boolean;
    shareable: boolean;
    greetingText: string | null;
    discount: number;
    percentageDiscount: boolean;
  } | null;
  referralCode: string;
  /** Referral credits earned in the account's currency (minor units): credited referrals (issue 25). */
  referralCreditsEarnedToDate: number;
  totalRewardPoints: number;
  hasRewards: boolean;
  voucherAvailable: boolean;
  /** The loyalty level reached (issue 25: users.loyalty_level, written by the rewards area). */
  loyaltyLevelIdentity: string | null;
  submittedTestimonial: boolean;
  showCheckSpamMessage: boolean;
  hideInvoices: boolean;
  overrideDownloadAvailable: boolean;
  gtmUid: null;
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
    .select((eb) =>
      eb.selectFrom("orders as o").select(eb.fn.countAll<string>().as("n")).whereRef("o.user_id", "=", "u.id").as("order_count"),
    )
    // Issue 25 (referrals, testimonials; ADR 076): accounts reads their tables, the areas above write them.
    .select((eb) =>
      eb
        .selectFrom("referrals as rf")
        .select(sql<string>`coalesce(sum(rf.credit_amount), 0)`.as("s"))
        .whereRef("rf.referrer_user_id", "=", "u.id")
        .where("rf.status", "=", "credited")
        .whereRef("rf.credit_currency", "=", "u.currency_iso")
        .as("referral_credits"),
    )
    .select((eb) =>
      eb.exists(eb.selectFrom("testimonials as tm").select("tm.id").whereRef("tm.user_id", "=", "u.id")).as("submitted_testimonial"),
    )
    .where("u.id", "=", userId)
    .executeTakeFirst();
  if (!u) return null;
  const phoneCountry = phoneCountryFor(u.phone_country_code, await listCountries(ctx.db), u.country_iso2);
  const unpaid = await ctx.db
    .selectFrom("invoices")
    .select("number")
    .where("user_id", "=", userId)
    // Order invoices only: an unpaid prepayment owes nothing (ADR 058).
    .where("kind", "=", "order")
    .where("balance", ">", "0")
    .limit(1)
    .executeTakeFirst();
  // The preferred group (issue 25): joined and still active; server/groups writes it and invalidates this view.
  const group = u.preferred_group_id
    ? await ctx.db
        .selectFrom("preferred_groups")
        .select(["code", "name", "membership_displayed", "shareable", "greeting_text", "discount", "percentage_discount"])
        .where("id", "=", u.preferred_group_id)
        .where("active", "=", true)
        .executeTakeFirst()
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
    // One rule for a name everywhere (app/common/names.ts): "李伟", not "伟 李".
    fullName: personName(u.first_name, u.last_name),
    email: u.email,
    title: u.title,
    institution: u.institution,
    orcid: u.orcid,
    secondaryEmail: u.secondary_email,
    foundUs: u.found_us,
    otherFoundUs: u.other_found_us,
    workplace: u.workplace,
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
      optedIn: Boolean(u.wfoe_accepted_tos_at),
      optedOut: false,
      hasUnpaidInvoices: Boolean(unpaid),
      noticeSkipped: false,
    },
    // Placing an order invalidates the cached view (server/orders/place.ts), so this count stays current.
    numberOfOrders: Number(u.order_count ?? 0),
    credits: [],
    prepayments: [],
    fapiaos: [],
    paymentMethods: [],
    preferredGroup: group
      ? {
          code: group.code,
          name: group.name,
          membershipDisplayed: group.membership_displayed,
          shareable: group.shareable,
          greetingText: group.greeting_text,
          discount: Math.round(Number(group.discount) * 100) / 100,
          percentageDiscount: group.percentage_discount,
        }
      : null,
    referralCode: u.referral_code,
    referralCreditsEarnedToDate: Number(u.referral_credits ?? 0),
    // Issue 25 (rewards): the users row's columns, kept by the rewards area (accounts is below it: it reads the row).
    totalRewardPoints: u.reward_points,
    hasRewards: u.has_rewards,
    voucherAvailable: u.voucher_available,
    loyaltyLevelIdentity: u.loyalty_level,
    submittedTestimonial: Boolean(u.submitted_testimonial),
    // The spam banner (issue 25, ADR 077): until hidden, while the e-mail address is not verified (dashboard and /home).
    showCheckSpamMessage: !u.hide_check_spam_message && !u.email_verified_at,
    hideInvoices: u.hide_invoices,
    overrideDownloadAvailable: false,
    gtmUid: null,
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

/**
 * Saves the account details (parsed with the shared schema, app/common/accounts/schemas.ts) after the rules
 * that need the database: the country exists, and the phone number fits its calling code's country.
 */
export async function updateDetails(scope: Scope, input: DetailsInput): Promise<Result<UserView>> {
  const { app: ctx } = scope;
  const userId = actingUser(scope);
  const [country, codeCountry] = await Promise.all([
    ctx.db.selectFrom("countries").select(["id", "iso2", "localization"]).where("iso2", "=", input.country).executeTakeFirst(),
    ctx.db
      .selectFrom("countries")
      .select(["iso2", "calling_code", "phone_min", "phone_max"])
      .where("iso2", "=", input.countryCode)
      .executeTakeFirst(),
  ]);
  const errors: FieldErrors = {};
  if (!country) errors.country = "auth:register.errors.country-required";
  const phoneError = validatePhone(
    input.phoneNumber,
    codeCountry ? { iso2: codeCountry.iso2, phoneMin: codeCountry.phone_min, phoneMax: codeCountry.phone_max } : undefined,
  );
  if (phoneError) errors.phoneNumber = `auth:register.errors.${phoneError}`;
  if (!country || !codeCountry || Object.keys(errors).length) return invalid(errors);
  await ctx.db
    .updateTable("users")
    .set({
      title: input.title || null,
      first_name: input.firstName,
      last_name: input.lastName,
      institution: input.institution || null,
      orcid: input.orcid || null,
      secondary_email: input.secondaryEmail || null,
      phone_country_code: codeCountry.calling_code,
      phone_number: input.phoneNumber,
      country_id: country.id,
      language: input.language,
      optin_to_marketing: input.optinToMarketing,
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .execute();
  await auditImpersonated(scope, "account.details", { type: "user", id: String(userId) });
  await invalidateUser(ctx, userId);
  return ok((await getUserView(ctx, userId))!);
}

/**
 * Changes the acting user's password and signs them out everywhere; the answer carries the fresh session
 * token of the browser that asked. The length rules are the schema's (passwordChangeSchema).
 */
export async function changePassword(scope: Scope, input: PasswordChangeInput): Promise<Result<{ token: string }>> {
  const { app: ctx } = scope;
  const userId = actingUser(scope);
  const user = await ctx.db.selectFrom("users").select(["password_hash"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return invalid({ currentPassword: "account:password.errors.currentWrong" });
  const check = await checkCurrentPassword(ctx, userId, user.password_hash, input.currentPassword);
  if (!check.ok && check.error === "too-many-attempts")
    return {
      ...invalid({ currentPassword: "account:password.errors.tooManyAttempts" }, check.error),
      details: { retryAfterSeconds: check.retryAfterSeconds },
    };
  if (!check.ok) return invalid({ currentPassword: "account:password.errors.currentWrong" });
  const hash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: hash, password_changed_at: new Date(), updated_at: new Date() })
      .where("id", "=", userId)
      .execute();
    // A reset link asked for before the change (perhaps by whoever knew the old password) must not
    // outlive it (issue 10 §12).
    await revokeResetLinks(trx as never, userId);
    await revokeAllSessions(trx as never, userId);
  });
  await invalidateUser(ctx, userId);
  return ok({ token: await createSession(ctx.db, userId, { ip: scope.ip, userAgent: scope.userAgent }) });
}

/** What the account details page shows: the user view and the country list. */
export async function accountDetailsPage(scope: Scope) {
  const [user, countries] = await Promise.all([getUserView(scope.app, actingUser(scope)), listCountries(scope.app.db)]);
  return { user, countries };
}

/** The acting user's view (cached). */
export function myUserView(scope: Scope): Promise<UserView | null> {
  return getUserView(scope.app, actingUser(scope));
}

/** The acting user's local-entity (wfoe) migration status (spec 2 §4 "Migration"). */
export async function wfoeMigrationStatus(scope: Scope): Promise<UserView["wfoeMigrationStatus"]> {
  const user = await getUserView(scope.app, actingUser(scope));
  if (!user) throw new Error("the signed-in user has no row");
  return user.wfoeMigrationStatus;
}

/** Records that the acting user accepted the local entity's terms (the first acceptance counts). */
export async function acceptWfoeTerms(scope: Scope): Promise<Result> {
  const userId = actingUser(scope);
  await scope.app.db
    .updateTable("users")
    .set({ wfoe_accepted_tos_at: new Date() })
    .where("id", "=", userId)
    .where("wfoe_accepted_tos_at", "is", null)
    .execute();
  await invalidateUser(scope.app, userId);
  return ok();
}

/** Number of orders the user has placed (GET /api/users/{id}/order-count), read from the orders themselves. */
export async function orderCount(ctx: AppContext, userId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findUserByIdentity(ctx: AppContext, identity: string) {
  if (!/^[0-9a-f-]{36}$/i.test(identity)) return undefined;
  return ctx.db.selectFrom("users").select(["id", "identity"]).where("identity", "=", identity).executeTakeFirst();
}

/** Sets the acting user's country from its ISO code; an unknown code is `country-required`. */
export async function setCountry(scope: Scope, iso2: string): Promise<Result> {
  const userId = actingUser(scope);
  const country = await scope.app.db.selectFrom("countries").select(["id"]).where("iso2", "=", iso2).executeTakeFirst();
  if (!country) return fail("country-required");
  await scope.app.db.updateTable("users").set({ country_id: country.id, updated_at: new Date() }).where("id", "=", userId).execute();
  await invalidateUser(scope.app, userId);
  return ok();
}

/** The country prompt's answer through the API: an ISO code (any case) or a country's numeric id. */
export async function setCountryByRef(scope: Scope, ref: string | number | undefined): Promise<Result> {
  let iso = typeof ref === "string" && /^[A-Za-z]{2}$/.test(ref) ? ref.toUpperCase() : undefined;
  // A country id bounded to its column (ADR 044): 2^53 + 1 or 1.5 is no country, not a query PostgreSQL refuses.
  const id = iso ? null : serialIdOf(ref);
  if (id !== null) iso = (await scope.app.db.selectFrom("countries").select("iso2").where("id", "=", id).executeTakeFirst())?.iso2;
  return iso ? setCountry(scope, iso) : fail("country-required");
}

/** Records that the user dismissed or completed the country prompt (spec 1 §2); answers whether it still shows. */
export async function recordCountryPromptStatus(
  scope: Scope,
  status: (typeof COUNTRY_PROMPT_STATUSES)[number] | undefined,
): Promise<Result<{ shouldDisplayCountryModal: boolean }>> {
  if (!status) return fail("invalid-update-status");
  const userId = actingUser(scope);
  await scope.app.db.updateTable("users").set({ snid_country_update_status: status }).where("id", "=", userId).execute();
  await invalidateUser(scope.app, userId);
  return ok({ shouldDisplayCountryModal: await countryPromptShown(scope) });
}

/** Whether the acting user is asked for their country. */
export async function countryPromptShown(scope: Scope): Promise<boolean> {
  const user = await getUserView(scope.app, actingUser(scope));
  return Boolean(user?.shouldDisplayCountryModal);
}

/** The countries of the country prompt, or null when the visitor is not asked (signed out, or has a country). */
export async function countryPromptCountries(scope: Scope) {
  if (scope.userId === null || !(await countryPromptShown(scope))) return null;
  return listCountries(scope.app.db);
}

/**
 * GET /api/account: the signed-in user's account (spec 1 §3 "User"), with the found-us options. Besides the
 * cached view it carries what depends on the request (the site it came to, its language) or changes with
 * every order step: whether the user belongs on another localisation's site (only when localisation hosts
 * are configured, ADR 021), their home directory, their unpaid invoices, linked sign-ins and the order form
 * in progress.
 */
export async function accountOf(scope: Scope) {
  const userId = actingUser(scope);
  const [user, snapshot, unpaidInvoices, linkedAccounts, inProgress] = await Promise.all([
    getUserView(scope.app, userId),
    scope.app.config.snapshot(),
    scope.app.db
      .selectFrom("invoices")
      .select(["number", "currency_iso", "balance", "due_at"])
      .where("user_id", "=", userId)
      .where("kind", "=", "order")
      .where("balance", ">", "0")
      .orderBy("created_at")
      .execute(),
    scope.app.db.selectFrom("linked_accounts").select(["provider_id", "email"]).where("user_id", "=", userId).orderBy("id").execute(),
    scope.app.db
      .selectFrom("order_forms")
      .select("id")
      .where("user_id", "=", userId)
      .where("status", "=", "draft")
      .orderBy("updated_at", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const site = localizationForHost(snapshot.localizations, scope.host);
  const mismatch = Boolean(user && otherSiteHost(snapshot.localizations, site.identity, user.localization));
  // Read fresh here: the cached view's flag waits for the next invalidation (an order placed, details saved).
  const wfoeMigrationStatus = user ? { ...user.wfoeMigrationStatus, hasUnpaidInvoices: unpaidInvoices.length > 0 } : undefined;
  return {
    user: {
      ...user,
      loggedIn: true,
      impersonatorIdentity: scope.session?.impersonatorIdentity ?? null,
      homeDirectory: homeDirectory(scope.lang),
      wfoeMigrationStatus,
      localizationMismatch: mismatch,
      requiresLocalizationRedirect: mismatch,
      unpaidInvoices: unpaidInvoices.map((i) => ({
        number: i.number,
        currencyIso: i.currency_iso.trim(),
        balance: Number(i.balance),
        dueAt: i.due_at ? new Date(i.due_at).toISOString() : null,
      })),
      linkedAccounts: linkedAccounts.map((a) => ({ providerId: a.provider_id, email: a.email })),
      orderFormInProgress: inProgress ? { identity: inProgress.id } : null,
    },
    foundUsOptions: snapshot.config.foundUsOptions,
  };
}

/**
 * The referral credit (config `referralAmount`, stated in USD) in the researcher's order currency at today's
 * rate, so a Brazilian reads "R$224", not "$40" (issue 9 §4). An unknown currency falls back to USD.
 */
export async function referralCredit(scope: Scope, currencyIso: string): Promise<{ amount: number; currency: CurrencyFormat }> {
  const [snapshot, catalogue] = await Promise.all([scope.app.config.snapshot(), getCatalogue(scope.app)]);
  const currency = catalogue.currencies[currencyIso.trim()] ?? catalogue.currencies.USD;
  const usdCents = Math.round(Number(snapshot.config.referralAmount) * 100);
  return {
    amount: toCurrency(catalogue, usdCents, currency.isoCode, new Date()),
    currency: { isoCode: currency.isoCode, sign: currency.sign, numDecimals: currency.numDecimals },
  };
}
