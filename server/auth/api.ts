// Sign-in and registration API (spec 1 §7): password sign-in and sign-out, registration, password reset,
// social sign-in navigations and WeChat QR sign-in. Bodies are parsed with the schemas the pages use
// (app/common/auth/schemas.ts) and go to the same domain functions (server/auth/sign-in.ts), so the API
// and the pages cannot drift. The answers keep the shapes API clients know: sign-in and registration
// errors carry `loggedIn: false`, the WeChat calls `{ error: <translated text>, errorCode }`.
import * as z from "zod/mini";
import { DEFAULT_LANG, isSiteLang, type SiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import { errorCode, errorStatus, fieldErrorCodes, ok } from "#common/result";
import { homeDirectory, resolveRedirect } from "#common/auth/redirect";
import { emailOnlySchema, loginSchema, registerSchema, resetPasswordApiSchema, wechatStartSchema } from "#common/auth/schemas";
import { findUnstorable } from "../http/input";
import { endpoint, reply, type EndpointTable, type HandlerAnswer } from "../http/api/endpoint";
import { schemaError, type SchemaError } from "../http/api/schema-error";
import { cookies } from "../http/cookies";
import { fixedT } from "../i18n";
import type { Scope } from "../scope";
import { getUserView } from "../accounts/account";
import { listCountries } from "../kernel/reference";
import { requestPasswordReset } from "./password-reset";
import { verifyLogoutToken } from "./logout-token";
import { allowedRedirectHosts, checkEmailFree, claimAnonymousWork, register, signIn, signInWithResetLink, signOut } from "./sign-in";
import { signedInCookies, signedInRedirectResponse } from "./http";
import { finishSocialSignIn, outcomeRedirect, startSocialSignIn } from "./social-http";
import {
  WECHAT_MAX_POLLS,
  WECHAT_POLL_INTERVAL_MS,
  pollWechatSignIn,
  startWechatSignIn,
  wechatAvailable,
  wechatErrorKey,
  wechatErrorStatus,
  type WechatPollError,
} from "./wechat";

/** Any JSON object: these bodies are parsed in the handler, whose error answers keep their historical shape. */
const jsonObject = z.record(z.string(), z.unknown());
type JsonObject = z.infer<typeof jsonObject>;

/** The 400 of a body that fails its schema, in the shape these endpoints have always answered. */
const errorOnly = ({ error }: SchemaError) => ({ error });
const signedOut = ({ error }: SchemaError) => ({ loggedIn: false, error });

const retryAfter = (details: Record<string, unknown> | undefined) =>
  typeof details?.retryAfterSeconds === "number" ? { "Retry-After": String(details.retryAfterSeconds) } : undefined;

/** Revokes this browser's session; answers the cookie that clears it (both sign-out endpoints send it). */
async function signOutHere(scope: Scope): Promise<string> {
  await signOut(scope);
  return cookies.session.clear(scope.secure);
}

const logoutGifQuery = z.object({ t: z.optional(z.string()) });

/** The GIF the logout page of each localisation loads from the others (a transparent 1×1). */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** The registration payload of spec 1 §3 as the shared schema reads it (the calling code may be `{ value, isoCode }`). */
function registrationFields(body: JsonObject, lang: SiteLang) {
  const countryCode =
    body.countryCode && typeof body.countryCode === "object" ? (body.countryCode as { isoCode?: unknown }).isoCode : body.countryCode;
  return {
    ...body,
    intent: "register",
    countryCode,
    language: body.language ?? lang,
    agreeToTOS: body.agreeToTOS === true || body.agreeToTOS === "true",
    optinToMarketing: body.optinToMarketing === true || body.optinToMarketing === "true",
  };
}

// WeChat QR sign-in exists only while a provider is configured (WECHAT_MODE) and the wechat_sso flag is on:
// a 404 for every method otherwise.
const wechatNotFound = () => reply({ error: "not-found", errorCode: "not-found" }, { status: 404 });

/** A WeChat handler, answered only while WeChat sign-in is available. */
const whileWechatOn =
  <I extends { scope: Scope }>(handler: (input: I) => Promise<HandlerAnswer>) =>
  async (input: I): Promise<HandlerAnswer> =>
    (await wechatAvailable(input.scope.app)) ? handler(input) : wechatNotFound();

function wechatError(
  scope: Scope,
  error: WechatPollError | "rate-limited" | "method-not-allowed" | "invalid-characters",
  status: number,
  headers?: Record<string, string>,
) {
  const key =
    error === "method-not-allowed"
      ? "errors.methodNotAllowed"
      : error === "invalid-characters"
        ? "errors.invalidCharacters"
        : wechatErrorKey(error);
  return reply({ error: fixedT(scope.lang, "wechat")(key), errorCode: error }, { status, headers });
}

/** The wrong-method answer of a WeChat path: 404 while WeChat is unavailable, else a translated 405 naming the one method. */
const wechatWrongMethod = (allow: "GET" | "POST") =>
  whileWechatOn(async ({ scope }) => wechatError(scope, "method-not-allowed", 405, { Allow: allow }));

/** Reads the start body: JSON or a form, all fields optional; an unreadable body is an empty one. */
async function readLooseBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body = await request.json();
      return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
    }
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      return Object.fromEntries(await request.formData());
    }
  } catch {
    /* an unreadable body is an empty one */
  }
  return {};
}

export const authApi: EndpointTable = [
  endpoint({
    method: "POST",
    path: "/api/auth/login",
    auth: "none",
    body: loginSchema,
    invalidInput: signedOut,
    summary: "Signs in with e-mail and password (claims the browser's anonymous order forms and uploads, as the page does).",
    async handler({ scope, body }) {
      const r = await signIn(scope, body);
      if (!r.ok) return reply({ loggedIn: false, error: r.error }, { status: errorStatus(r.error), headers: retryAfter(r.details) });
      const user = await getUserView(scope.app, r.value.user.id);
      return reply(
        { loggedIn: true, user, language: r.value.user.language },
        { cookies: signedInCookies(r.value.token, r.value.user.language, scope.secure) },
      );
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/auth/logout",
    // The session is read: signing out while viewing as a researcher writes the audit's stop row (issue 22 item 8).
    auth: "optional",
    summary: "Signs out: revokes this session and clears its cookie.",
    handler: async ({ scope }) => reply({ loggedIn: false }, { cookies: [await signOutHere(scope)] }),
  }),
  endpoint({
    method: "GET",
    path: "/api/auth/logout.gif",
    // The session is read: the token must name its user.
    auth: "optional",
    query: logoutGifQuery,
    // A GET that changes state by design, so only with a token of the portal's own sign-out (issue 10 §10):
    // another site's link or image (no token, a forged one, or one naming another user) signs nobody out.
    summary:
      "Signs out when ?t= is the logout token of the signed-in user, and answers a 1×1 GIF: the signed-out page of each localisation loads it from the others (spec 1 §2).",
    async handler({ scope, query }) {
      const userId = verifyLogoutToken(scope.app, query.t);
      const signOutNow = userId !== null && scope.userId === userId;
      return new Response(GIF, {
        headers: {
          "Content-Type": "image/gif",
          "Cache-Control": "no-store",
          "Cross-Origin-Resource-Policy": "cross-origin",
          ...(signOutNow ? { "Set-Cookie": await signOutHere(scope) } : {}),
        },
      });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/auth/register",
    auth: "none",
    body: jsonObject,
    summary:
      "Registers a researcher and signs them in (claims the browser's anonymous work, as the page does); the password is never echoed.",
    async handler({ scope, body }) {
      const parsed = registerSchema(await listCountries(scope.app.db)).safeParse(registrationFields(body, scope.lang));
      if (!parsed.success) return reply({ loggedIn: false, ...schemaError(parsed.error.issues) }, { status: 400 });
      const v = parsed.data;
      const link = typeof body.link === "string" ? body.link : null;
      const r = await register(scope, { ...v, optinToMarketing: v.optinToMarketing ?? false }, { link, source: "api" });
      if (!r.ok) {
        if (!Object.keys(r.fieldErrors).length) {
          return reply({ loggedIn: false, error: r.error }, { status: errorStatus(r.error), headers: retryAfter(r.details) });
        }
        const fieldErrors = fieldErrorCodes(r.fieldErrors);
        // A taken address is a conflict, whatever else was wrong.
        return reply(
          { loggedIn: false, error: r.error, fieldErrors },
          { status: fieldErrors.email === "email-already-exists" ? errorStatus("email-already-exists") : 400 },
        );
      }
      return reply(
        { loggedIn: true, redirectUri: paths.researcher(v.language), userDetails: { email: v.email, identity: r.value.identity } },
        { status: 201, cookies: signedInCookies(r.value.token, v.language, scope.secure) },
      );
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/auth/researcher_exists",
    auth: "none",
    body: emailOnlySchema,
    invalidInput: errorOnly,
    summary: "Whether an e-mail address is registered (the first stage of registration; rate-limited).",
    async handler({ scope, body }) {
      const r = await checkEmailFree(scope, body.email);
      if (r.ok) return ok({ researcherExists: false });
      if (r.fieldErrors.email) return ok({ researcherExists: true, error: errorCode(r.fieldErrors.email) });
      return reply({ error: r.error }, { status: errorStatus(r.error) });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/auth/request-password-reset",
    auth: "none",
    body: emailOnlySchema,
    invalidInput: errorOnly,
    summary: "E-mails a one-time password-reset link; the same answer whether or not the address is registered.",
    async handler({ scope, body }) {
      const outcome = await requestPasswordReset(scope.app, { email: body.email, lang: scope.lang, ip: scope.ip });
      if (outcome === "rate-limited") return reply({ error: "too-many-requests" }, { status: errorStatus("too-many-requests") });
      return ok({});
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/auth/reset-password",
    auth: "none",
    body: resetPasswordApiSchema,
    invalidInput: errorOnly,
    summary: "Sets a new password with the one-time link and signs in on a fresh session (every other session is signed out).",
    async handler({ scope, body: { oneTimeLoginHash, userIdentity, password } }) {
      const r = await signInWithResetLink(scope, { token: oneTimeLoginHash, userIdentity, password });
      if (!r.ok) return reply({ error: r.error }, { status: errorStatus(r.error), headers: retryAfter(r.details) });
      return reply({ redirectUri: homeDirectory(scope.lang) }, { cookies: [cookies.session.serialize(r.value.token, scope.secure)] });
    },
  }),

  // Social sign-in (ADR 003): browser navigations, answered with redirects.
  endpoint({
    method: "GET",
    path: "/api/auth/opa/:providerId",
    auth: "none",
    summary: "Browser navigation: starts social sign-in (authorization code with PKCE and state) and redirects to the provider.",
    handler: ({ scope, params, webRequest }) => startSocialSignIn(scope.app, webRequest(), params.providerId, { secure: scope.secure }),
  }),
  endpoint({
    method: "GET",
    path: "/api/auth/opa/:providerId/callback",
    auth: "none",
    summary: "Browser navigation: the provider's answer; signs in (303 to the redirect), or on to registration or the failure page.",
    async handler({ scope, params, webRequest }) {
      const outcome = await finishSocialSignIn(scope.app, webRequest(), params.providerId, {
        ip: scope.ip,
        userAgent: scope.userAgent,
        secure: scope.secure,
      });
      if (outcome.kind === "redirect") return outcomeRedirect(outcome.location, outcome.setCookies);
      let response: Response;
      if (outcome.kind === "signed-in") {
        await claimAnonymousWork(scope, outcome.userId);
        response = await signedInRedirectResponse(scope, {
          token: outcome.token,
          lang: outcome.lang,
          target: outcome.redirect,
          extraCookies: outcome.setCookies,
        });
      } else {
        const { url } = resolveRedirect(outcome.redirect, homeDirectory(outcome.lang), await allowedRedirectHosts(scope.app));
        response = outcomeRedirect(url, outcome.setCookies);
      }
      response.headers.set("Cache-Control", "no-store");
      return response;
    },
  }),

  // WeChat QR sign-in (ADR 004).
  endpoint({
    method: "POST",
    path: "/api/auth/wechat-login",
    auth: "none",
    // JSON or a form (the page without JavaScript posts one): read by the handler.
    body: "stream",
    summary: "Starts a WeChat QR sign-in bound to this browser (HttpOnly cookie); answers the login code, QR image and polling budget.",
    wrongMethod: wechatWrongMethod("POST"),
    handler: whileWechatOn(async ({ scope, webRequest }) => {
      const request = webRequest();
      const loose = await readLooseBody(request);
      // This body is read here, not by the router: its NUL or lone-surrogate check is repeated (ADR 018, 044).
      if (findUnstorable(loose)) return wechatError(scope, "invalid-characters", 400);
      const parsed = wechatStartSchema.safeParse(loose);
      const body = parsed.success ? parsed.data : {};
      const result = await startWechatSignIn(scope.app, {
        lang: isSiteLang(body.lang) ? body.lang : scope.lang,
        redirect: body.redirect || null,
        origin: body.origin || null,
        ip: scope.ip,
        userAgent: scope.userAgent,
        baseUrl: new URL(request.url).origin,
      });
      if (!result.ok) return wechatError(scope, result.error, 429, { "Retry-After": String(result.retryAfterSeconds) });
      return reply(
        {
          loginCode: result.loginCode,
          ticket: result.ticket,
          url: result.url,
          qrCodeUrl: result.qrCodeUrl,
          expiresAt: result.expiresAt.toISOString(),
          pollIntervalMs: WECHAT_POLL_INTERVAL_MS,
          maxPolls: WECHAT_MAX_POLLS,
          sandbox: result.sandbox,
          // The code the phone must type; this answer goes only to the browser that gets the binding cookie.
          confirmCode: result.confirmCode,
        },
        { cookies: [cookies.wechatBinding.serialize(result.secret, scope.secure)] },
      );
    }),
  }),
  endpoint({
    method: "GET",
    path: "/api/auth/wechat-login/:loginCode",
    auth: "none",
    summary: "Polls this browser's WeChat QR sign-in (every 2 s, at most 30 times); signs in once the phone confirms.",
    wrongMethod: wechatWrongMethod("GET"),
    handler: whileWechatOn(async ({ scope, params }) => {
      const result = await pollWechatSignIn(scope.app, {
        loginCode: params.loginCode,
        secret: scope.cookies[cookies.wechatBinding.name],
        ip: scope.ip,
        userAgent: scope.userAgent,
      });
      if (result.kind === "waiting") return ok({ loggedIn: false, status: result.status });
      if (result.kind === "error") {
        const headers = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
        return wechatError(scope, result.error, wechatErrorStatus(result.error), headers);
      }
      const lang = isSiteLang(result.lang) ? result.lang : DEFAULT_LANG;
      const { url } = resolveRedirect(result.redirect, homeDirectory(lang), await allowedRedirectHosts(scope.app));
      await claimAnonymousWork(scope, result.user.id);
      return reply(
        {
          loggedIn: true,
          redirectUri: url,
          user: { identity: result.user.identity, firstName: result.user.firstName, lastName: result.user.lastName },
        },
        { cookies: [...signedInCookies(result.token, lang, scope.secure), cookies.wechatBinding.clear(scope.secure)] },
      );
    }),
  }),
];
