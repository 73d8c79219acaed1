// The social sign-in round trip (spec 1 §7 GET /api/auth/opa/{providerId}?redirect=&origin=):
// an authorization-code flow with PKCE (S256) and state through remix-auth 4 and
// remix-auth-oauth2 3, one strategy instance per request (no module-level state).
//
// remix-auth-oauth2 keeps state and code verifier in its own cookie (`opa_state:<uuid>`).
// Beside it we set a signed, short-lived flow cookie (`opa_flow_<hash of state>`) carrying
// the provider, redirect, origin, language and OIDC nonce, so they survive the trip to the
// provider and even a failed callback can send the visitor back with them. ADR 003.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Authenticator } from "remix-auth";
import { OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import type { AppContext } from "../context";
import { isSiteLang, type SiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import { detectLang } from "../http/request-language";
import { cookies, parseCookies, serializeCookie } from "../http/cookies";
import { createSession, readSession } from "../accounts/session";
import { findProvider, type ResolvedProvider } from "./social";
import { encodeRegisterPrefill, resolveSocialIdentity, type SocialFailure, type SocialProfile } from "./social-link";
import { clip } from "#common/text";

export const SOCIAL_PATH = "/api/auth/opa";
const STATE_COOKIE = "opa_state";
const FLOW_COOKIE_PREFIX = "opa_flow_";
/** How long a visitor may stay at the provider. */
export const FLOW_TTL_SECONDS = 10 * 60;
const FETCH_TIMEOUT_MS = 10_000;
const JWKS_CACHE_SECONDS = 600;
const MAX_CARRIED_LENGTH = 2000;

interface Flow {
  /** provider id */
  p: string;
  /** OAuth state */
  s: string;
  /** redirect and origin query values */
  r: string | null;
  o: string | null;
  l: SiteLang;
  /** OIDC nonce */
  n: string;
  /** expiry (ms since epoch) */
  e: number;
}

export interface CallbackMeta {
  ip: string;
  userAgent: string | null;
  secure: boolean;
}

export type CallbackOutcome =
  | { kind: "signed-in"; token: string; userId: number; lang: SiteLang; redirect: string | null; setCookies: string[] }
  /** Already signed in (an identity linked from the account): go on to the redirect. */
  | { kind: "continue"; lang: SiteLang; redirect: string | null; setCookies: string[] }
  | { kind: "redirect"; location: string; setCookies: string[] };

/** The request's cookies, through the one parser (server/http/cookies.ts). */
function readCookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(parseCookies(request.headers.get("cookie")))) if (value !== undefined) out.set(name, value);
  return out;
}

/** A redirect or origin value as received, bounded; where it may lead is decided when it is used (resolveRedirect). */
function carried(value: string | null): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!value || value.length > MAX_CARRIED_LENGTH || /[\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}

function withCarried(path: string, redirect: string | null, origin: string | null): string {
  const q = new URLSearchParams();
  if (redirect) q.set("redirect", redirect);
  if (origin) q.set("origin", origin);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** /{lang}/login/failure/{message}?redirect=&origin= */
export function failureLocation(lang: SiteLang, redirect: string | null, origin: string | null, message = "oauth-failure"): string {
  return withCarried(paths.loginFailure(lang, message), redirect, origin);
}

/** The callback address the provider sends the browser back to: PUBLIC_URL when set, else the request's origin. */
export function callbackUrl(ctx: AppContext, request: Request, providerId: string): string {
  const base = ctx.env.PUBLIC_URL ?? new URL(request.url).origin;
  return `${base}${SOCIAL_PATH}/${encodeURIComponent(providerId)}/callback`;
}

/** A flow cookie (or its removal, maxAge 0): HttpOnly, only sent to the social sign-in paths. */
function flowSetCookie(name: string, value: string, maxAge: number, secure: boolean): string {
  return serializeCookie(name, value, { path: SOCIAL_PATH, httpOnly: true, maxAge, secure });
}

function sign(ctx: AppContext, payload: string): string {
  return createHmac("sha256", ctx.secrets.cookieSecret).update(`opa-flow:${payload}`).digest("base64url");
}

function flowCookieName(state: string): string {
  return FLOW_COOKIE_PREFIX + createHash("sha256").update(state).digest("hex").slice(0, 16);
}

function flowCookie(ctx: AppContext, flow: Flow, secure: boolean): string {
  const payload = Buffer.from(JSON.stringify(flow)).toString("base64url");
  return flowSetCookie(flowCookieName(flow.s), `${payload}.${sign(ctx, payload)}`, FLOW_TTL_SECONDS, secure);
}

/** The valid (signed, unexpired) flow cookies of a request, newest first. */
function readFlows(ctx: AppContext, request: Request): { name: string; flow: Flow }[] {
  const flows: { name: string; flow: Flow }[] = [];
  for (const [name, value] of readCookies(request)) {
    if (!name.startsWith(FLOW_COOKIE_PREFIX)) continue;
    const [payload, signature] = value.split(".");
    if (!payload || !signature) continue;
    const expected = Buffer.from(sign(ctx, payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) continue;
    try {
      const flow = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Flow;
      if (typeof flow.s !== "string" || typeof flow.p !== "string" || !isSiteLang(flow.l) || !(flow.e > Date.now())) continue;
      if (name !== flowCookieName(flow.s)) continue;
      flows.push({ name, flow });
    } catch {
      /* not ours */
    }
  }
  return flows.sort((a, b) => b.flow.e - a.flow.e);
}

/** Set-Cookie headers removing the flow cookie and remix-auth-oauth2's state cookies of `state`. */
function clearFlowCookies(request: Request, state: string | null, flowName: string | null, secure: boolean): string[] {
  const out: string[] = [];
  if (flowName) out.push(flowSetCookie(flowName, "", 0, secure));
  if (!state) return out;
  for (const [name, value] of readCookies(request)) {
    if (!name.startsWith(STATE_COOKIE)) continue;
    const stored = new URLSearchParams(value.replace(/^"|"$/g, "")).get("state");
    if (stored === state) out.push(flowSetCookie(name, "", 0, secure));
  }
  return out;
}

/** remix-auth-oauth2's strategy, remembering the state it generated and adding the OIDC nonce. */
class PortalOAuth2Strategy extends OAuth2Strategy<SocialProfile> {
  generatedState: string | null = null;

  constructor(
    options: OAuth2Strategy.ConstructorOptions,
    verify: (params: OAuth2Strategy.VerifyOptions) => Promise<SocialProfile>,
    private nonce: string | null,
  ) {
    super(options, verify);
  }

  protected override createAuthorizationURL() {
    const result = super.createAuthorizationURL();
    this.generatedState = result.state;
    return result;
  }

  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const out = super.authorizationParams(params, request);
    if (this.nonce) out.set("nonce", this.nonce);
    return out;
  }
}

function strategyFor(
  ctx: AppContext,
  request: Request,
  provider: ResolvedProvider,
  secure: boolean,
  nonce: string | null,
  verify: (params: OAuth2Strategy.VerifyOptions) => Promise<SocialProfile>,
): PortalOAuth2Strategy {
  return new PortalOAuth2Strategy(
    {
      cookie: {
        name: STATE_COOKIE,
        path: SOCIAL_PATH,
        httpOnly: true,
        sameSite: "Lax",
        maxAge: FLOW_TTL_SECONDS,
        ...(secure ? { secure: true as const } : {}),
      },
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      authorizationEndpoint: provider.authorizationEndpoint,
      tokenEndpoint: provider.tokenEndpoint,
      redirectURI: callbackUrl(ctx, request, provider.id),
      scopes: provider.scopes,
    },
    verify,
    nonce,
  );
}

function noStore(response: Response): Response {
  response.headers.set("Cache-Control", "no-store");
  return response;
}

function redirectResponse(location: string, setCookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const c of setCookies) headers.append("Set-Cookie", c);
  return new Response(null, { status: 302, headers });
}

/** GET /api/auth/opa/{providerId}: to the provider's authorization endpoint, or to the failure page. */
export async function startSocialSignIn(
  ctx: AppContext,
  request: Request,
  providerId: string,
  meta: { secure: boolean },
): Promise<Response> {
  const url = new URL(request.url);
  const redirect = carried(url.searchParams.get("redirect"));
  const origin = carried(url.searchParams.get("origin"));
  const lang = await detectLang(request);
  const fail = (reason: string, error?: unknown) => {
    ctx.logger.warn({ providerId, reason, err: error }, "social sign-in could not start");
    return redirectResponse(failureLocation(lang, redirect, origin));
  };
  let provider: ResolvedProvider | null;
  try {
    provider = await findProvider(ctx, providerId);
  } catch (error) {
    return fail("provider-unreachable", error);
  }
  if (!provider) return fail("unknown-provider");
  const nonce = provider.issuer ? randomBytes(16).toString("base64url") : null;
  const strategy = strategyFor(ctx, request, provider, meta.secure, nonce, async () => {
    throw new Error("no verification when starting");
  });
  const authenticator = new Authenticator<SocialProfile>().use(strategy, provider.id);
  // Only the cookies matter to the strategy here; a stray ?state= must not turn the start into a callback.
  const clean = new Request(new URL(`${SOCIAL_PATH}/${encodeURIComponent(provider.id)}`, url.origin), { headers: request.headers });
  try {
    await authenticator.authenticate(provider.id, clean);
  } catch (thrown) {
    if (thrown instanceof Response && strategy.generatedState) {
      const flow: Flow = {
        p: provider.id,
        s: strategy.generatedState,
        r: redirect,
        o: origin,
        l: lang,
        n: nonce ?? "",
        e: Date.now() + FLOW_TTL_SECONDS * 1000,
      };
      thrown.headers.append("Set-Cookie", flowCookie(ctx, flow, meta.secure));
      return noStore(thrown);
    }
    return fail("strategy-error", thrown);
  }
  return fail("strategy-did-not-redirect");
}

const claimString = (v: unknown): string => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

async function loadJwks(ctx: AppContext, jwksUri: string, fresh: boolean): Promise<JSONWebKeySet> {
  const key = `social:jwks:${jwksUri}`;
  if (!fresh) {
    const cached = await ctx.cache.getJson<JSONWebKeySet>(key).catch(() => undefined);
    if (cached) return cached;
  }
  const res = await fetch(jwksUri, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`JWKS ${jwksUri} answered ${res.status}`);
  const jwks = (await res.json()) as JSONWebKeySet;
  if (!Array.isArray(jwks?.keys)) throw new Error(`JWKS ${jwksUri} has no keys`);
  await ctx.cache.setJson(key, jwks, JWKS_CACHE_SECONDS).catch(() => undefined);
  return jwks;
}

/** Verifies the ID token: signature (the issuer's keys; re-fetched once on an unknown key), issuer, audience, expiry, nonce. */
async function verifyIdToken(ctx: AppContext, provider: ResolvedProvider, idToken: string, nonce: string | null): Promise<JWTPayload> {
  const verify = async (fresh: boolean) =>
    jwtVerify(idToken, createLocalJWKSet(await loadJwks(ctx, provider.jwksUri!, fresh)), {
      issuer: provider.issuer!,
      audience: provider.clientId,
      clockTolerance: 60,
    });
  let payload: JWTPayload;
  try {
    ({ payload } = await verify(false));
  } catch (error) {
    if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
    ({ payload } = await verify(true));
  }
  if (nonce && payload.nonce !== nonce) throw new Error("ID token nonce does not match");
  return payload;
}

/** The person behind the tokens: verified ID token claims and the userinfo endpoint's answer (same subject). */
async function fetchProfile(
  ctx: AppContext,
  provider: ResolvedProvider,
  tokens: OAuth2Strategy.VerifyOptions["tokens"],
  nonce: string | null,
): Promise<SocialProfile> {
  const data = tokens.data as Record<string, unknown>;
  let claims: Record<string, unknown> = {};
  if (typeof data.id_token === "string" && provider.issuer && provider.jwksUri) {
    claims = { ...(await verifyIdToken(ctx, provider, data.id_token, nonce)) };
  }
  if (provider.userinfoEndpoint) {
    const res = await fetch(provider.userinfoEndpoint, {
      headers: { authorization: `Bearer ${tokens.accessToken()}`, accept: "application/json" },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`userinfo answered ${res.status}`);
    const info = (await res.json()) as Record<string, unknown>;
    const infoSub = claimString(info.sub ?? info.id);
    if (claims.sub !== undefined && infoSub !== claimString(claims.sub)) throw new Error("userinfo subject differs from the ID token's");
    claims = { ...claims, ...info, sub: infoSub || claims.sub };
  }
  const subject = claimString(claims.sub ?? claims.id);
  if (!subject) throw new Error("the provider named no subject");
  const email = claimString(claims.email) || null;
  const full = claimString(claims.name);
  const [first, ...rest] = full.split(/\s+/).filter(Boolean);
  return {
    subject,
    email: email && email.length <= 254 ? email : null,
    emailVerified: Boolean(email) && (claims.email_verified === true || claims.email_verified === "true"),
    firstName: clip(claimString(claims.given_name) || first || "", 100),
    lastName: clip(claimString(claims.family_name) || rest.join(" "), 100),
  };
}

const FAILURE_MESSAGES: Partial<Record<SocialFailure, string>> = { "account-inactive": "account-inactive" };

/** GET /api/auth/opa/{providerId}/callback: what the provider's answer leads to. */
export async function finishSocialSignIn(
  ctx: AppContext,
  request: Request,
  providerId: string,
  meta: CallbackMeta,
): Promise<CallbackOutcome> {
  const url = new URL(request.url);
  const state = url.searchParams.get("state");
  const flows = readFlows(ctx, request);
  const match = flows.find((f) => f.flow.s === state && f.flow.p === providerId) ?? null;
  // Without a matching flow (tampered or stale state) the newest one still tells where the visitor came from.
  const known = match ?? flows[0] ?? null;
  const lang = known?.flow.l ?? (await detectLang(request));
  const redirect = known?.flow.r ?? null;
  const origin = known?.flow.o ?? null;
  const setCookies = clearFlowCookies(request, match ? state : null, match?.name ?? null, meta.secure);
  const fail = (reason: string, error?: unknown, message = "oauth-failure"): CallbackOutcome => {
    ctx.logger.warn({ providerId, reason, err: error instanceof OAuth2RequestError ? error.code : error }, "social sign-in failed");
    return { kind: "redirect", location: failureLocation(lang, redirect, origin, message), setCookies };
  };

  if (!match) return fail(url.searchParams.get("error") ? "denied-without-state" : "state-mismatch");
  let provider: ResolvedProvider | null;
  try {
    provider = await findProvider(ctx, providerId);
  } catch (error) {
    return fail("provider-unreachable", error);
  }
  if (!provider) return fail("unknown-provider");
  const resolved = provider;
  const nonce = match.flow.n || null;
  const strategy = strategyFor(ctx, request, resolved, meta.secure, nonce, ({ tokens }) => fetchProfile(ctx, resolved, tokens, nonce));
  let profile: SocialProfile;
  try {
    profile = await new Authenticator<SocialProfile>().use(strategy, resolved.id).authenticate(resolved.id, request);
  } catch (error) {
    if (error instanceof Response) return fail("unexpected-redirect");
    return fail(error instanceof OAuth2RequestError && error.code === "access_denied" ? "access-denied" : "exchange-failed", error);
  }

  const session = await readSession(ctx.db, readCookies(request).get(cookies.session.name));
  const current = session ? { userId: session.user.id, impersonated: session.impersonatorId !== null } : null;
  const result = await resolveSocialIdentity(ctx, resolved.id, profile, current);
  switch (result.kind) {
    case "sign-in": {
      const token = await createSession(ctx.db, result.userId, { ip: meta.ip, userAgent: meta.userAgent });
      ctx.logger.info({ providerId: resolved.id, userId: result.userId, linked: result.linked }, "social sign-in");
      return { kind: "signed-in", token, userId: result.userId, lang, redirect, setCookies };
    }
    case "linked-to-current":
      return { kind: "continue", lang, redirect, setCookies };
    case "register":
      return {
        kind: "redirect",
        location: withCarried(paths.registerConfirm(lang, encodeRegisterPrefill(result.prefill)), redirect, origin),
        setCookies,
      };
    case "failure":
      return fail(result.reason, undefined, FAILURE_MESSAGES[result.reason]);
  }
}

/** A Response for the non-sign-in outcomes (the route turns "signed-in" and "continue" into the sign-in redirect). */
export function outcomeRedirect(location: string, setCookies: string[]): Response {
  return redirectResponse(location, setCookies);
}
