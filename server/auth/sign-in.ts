// The end of every way of signing in (password, registration, social, WeChat), shared by the pages and
// the JSON API so the two cannot drift (issue 8): the anonymous visitor's order forms and uploads become
// the user's, and the redirect target is checked against the same hosts. Cookies and redirects are the
// HTTP layer's (server/http/cookies.ts, app/lib/sign-in.server.ts, server/auth/api.ts).
import { markEmailVerified, sendVerificationMail } from "../accounts/email-verification";
import { fail, invalid, ok, type Result } from "#common/result";
import type { LoginFields } from "#common/auth/schemas";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import { claimDrafts } from "../order-form/store";
import { claimDraftFiles } from "../documents/storage";
import { claimAssessments } from "../grammar-check";
import {
  allowExistenceCheck,
  createResearcherAccount,
  registerResearcher,
  researcherExists,
  type RegistrationInput,
} from "../accounts/registration";
import { listCountries, listCurrencies, type CountryOption, type CurrencyOption } from "../kernel/reference";
import { signInWithPassword } from "./login";
import { attachPendingLink } from "./social-link";
import { resetPassword } from "./password-reset";
import { createSession, revokeSession } from "../accounts/session";
import { audit } from "../kernel/audit";
import { isSiteLang } from "#common/i18n";

/** Hosts a sign-in may send the browser on to: our localisations' sites and the configured extra hosts. */
export async function allowedRedirectHosts(app: AppContext): Promise<string[]> {
  const { config, localizations } = await app.config.snapshot();
  return [...localizations.flatMap((l) => (l.secureSite ? [l.secureSite] : [])), ...config.allowedRedirectHosts];
}

/** Anonymous order forms, uploads and grammar checks of this browser (its draft cookie) become the user's. */
export async function claimAnonymousWork(scope: Scope, userId: number): Promise<void> {
  if (!scope.draftKey) return;
  await claimDrafts(scope.app.db, scope.draftKey, userId);
  await claimDraftFiles(scope.app, scope.draftKey, userId);
  await claimAssessments(scope.app, scope.draftKey, userId);
}

export interface SignedIn {
  /** The new session's token (the session cookie's value). */
  token: string;
  user: { id: number; identity: string; language: string };
}

/**
 * E-mail and password sign-in: a new session, and the browser's anonymous work claimed.
 * Errors: `invalid-credentials`, `local-auth-disabled`, `too-many-attempts` (details.retryAfterSeconds).
 */
export async function signIn(scope: Scope, input: Pick<LoginFields, "email" | "password">): Promise<Result<SignedIn>> {
  const r = await signInWithPassword(scope.app, { email: input.email, password: input.password, ip: scope.ip, userAgent: scope.userAgent });
  if (!r.ok) return r.error === "too-many-attempts" ? fail(r.error, { retryAfterSeconds: r.retryAfterSeconds }) : fail(r.error);
  await claimAnonymousWork(scope, r.user.id);
  return ok({ token: r.token, user: r.user });
}

export interface Registered {
  token: string;
  userId: number;
  identity: string;
}

/**
 * Registration: the account, its first session, the social identity it began with (`link`), and the
 * browser's anonymous work claimed. Field errors are keys of `auth:register.errors.*` (a taken address:
 * `email: auth:register.errors.email-already-exists`); too many registrations from one address `too-many-attempts`.
 */
export async function register(
  scope: Scope,
  input: RegistrationInput,
  options: { link?: string | null; source: "form" | "social" | "api" },
): Promise<Result<Registered>> {
  const r = await registerResearcher(scope.app, input, { ip: scope.ip, userAgent: scope.userAgent, source: options.source });
  if (!r.ok) {
    if ("error" in r) return fail(r.error, { retryAfterSeconds: r.retryAfterSeconds });
    const fieldErrors = Object.fromEntries(Object.entries(r.fieldErrors).map(([field, code]) => [field, `auth:register.errors.${code}`]));
    return invalid(fieldErrors);
  }
  // A registration that began with a social sign-in links that identity to the new account. The provider said
  // the address is verified and it is the one registered (attachPendingLink checks both): that proves it too.
  const linked = options.link ? await attachPendingLink(scope.app, options.link, { id: r.userId, email: input.email }) : false;
  await claimAnonymousWork(scope, r.userId);
  // Otherwise signed in with an unproved address: it gets only this mail (and reset links) until its link is opened.
  if (linked) await markEmailVerified(scope.app, r.userId);
  else await sendVerificationMail(scope.app, r.userId, scope.lang);
  return ok({ token: r.token, userId: r.userId, identity: r.identity });
}

/** Whether the signed-in user registers researchers as an administrator (spec 1 §6; ADR 066): a staff account with the admin flag, not viewing as someone. */
export function registersAsAdmin(scope: Pick<Scope, "session">): boolean {
  const session = scope.session;
  return Boolean(session && session.user.isStaff && session.user.isAdmin && !session.impersonatorId);
}

/**
 * An administrator registers a researcher (spec 1 §6 "Admin … may change currency and filter preferences during
 * registration", ADR 066): every currency is offered whatever the country (CNY too), the administrator stays signed
 * in as themselves and their browser's anonymous work stays theirs; the researcher gets the confirmation mail in the
 * language chosen for them. Audited as `staff.register-researcher`. Errors as `register`; `not-allowed` for anyone else.
 */
export async function registerAsAdmin(scope: Scope, input: RegistrationInput): Promise<Result<{ userId: number; identity: string }>> {
  if (!registersAsAdmin(scope)) return fail("not-allowed");
  const adminId = scope.session!.user.id;
  // The account without a session: the administrator stays signed in as themselves.
  const r = await createResearcherAccount(scope.app, input, { ip: scope.ip, userAgent: scope.userAgent, isAdmin: true, source: "admin" });
  if (!r.ok) {
    if ("error" in r) return fail(r.error, { retryAfterSeconds: r.retryAfterSeconds });
    return invalid(Object.fromEntries(Object.entries(r.fieldErrors).map(([field, code]) => [field, `auth:register.errors.${code}`])));
  }
  await audit(
    scope.app,
    adminId,
    "staff.register-researcher",
    { type: "user", id: r.identity },
    { currency: input.currency, ip: scope.ip },
  );
  await sendVerificationMail(scope.app, r.userId, isSiteLang(input.language) ? input.language : scope.lang);
  return ok({ userId: r.userId, identity: r.identity });
}

/**
 * The first stage of registration: is the address free? Rate-limited per address (it would otherwise let
 * anyone list our customers quickly). Errors: `too-many-requests`, `email-already-exists`.
 */
export async function checkEmailFree(scope: Scope, email: string): Promise<Result<{ email: string }>> {
  if (!(await allowExistenceCheck(scope.app, scope.ip))) return fail("too-many-requests");
  if (await researcherExists(scope.app.db, email)) return invalid({ email: "auth:register.errors.email-already-exists" });
  return ok({ email });
}

/**
 * A new password through the one-time link: the link proved control of the mailbox, so the user is signed
 * in on a fresh session (every other session was signed out). Errors: `invalid-or-expired`, `too-many-attempts`
 * (details.retryAfterSeconds).
 */
export async function signInWithResetLink(
  scope: Scope,
  input: { token: string; userIdentity: string; password: string },
): Promise<Result<{ token: string; userId: number }>> {
  const r = await resetPassword(scope.app, { ...input, ip: scope.ip });
  if (!r.ok) return r.error === "too-many-attempts" ? fail(r.error, { retryAfterSeconds: r.retryAfterSeconds }) : fail(r.error);
  const token = await createSession(scope.app.db, r.userId, { ip: scope.ip, userAgent: scope.userAgent });
  return ok({ token, userId: r.userId });
}

/** The country and currency lists of the registration form (and its schema's phone rules). */
export async function registrationChoices(app: AppContext): Promise<{ countries: CountryOption[]; currencies: CurrencyOption[] }> {
  const [countries, currencies] = await Promise.all([listCountries(app.db), listCurrencies(app.db)]);
  return { countries, currencies };
}

/**
 * Signs this browser out: its session (the session cookie of the scope) is revoked. Signing out while
 * viewing as a researcher ends that view too, so it is audited like "stop viewing" (issue 10 §8).
 */
export async function signOut(scope: Pick<Scope, "app" | "sessionToken" | "session" | "ip">): Promise<void> {
  await revokeSession(scope.app.db, scope.sessionToken ?? undefined);
  const session = scope.session;
  if (session?.impersonatorId)
    await audit(
      scope.app,
      session.impersonatorId,
      "impersonation.stop",
      { type: "user", id: session.user.identity },
      { ip: scope.ip, signOut: true },
    );
}
