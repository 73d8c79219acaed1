// Social sign-in providers (spec 1 §2 "Sign-in area", §3 "Social provider").
// Which providers show is the `authenticationProviders` config value; what a provider
// needs to work (endpoints or an OIDC issuer, client id and secret, scopes) is a row of
// `oauth_providers`. A provider shows, and its sign-in starts, only when it is listed,
// has an enabled row, suits the page's language and localisation, and (for `snid`)
// the npgle_snid flag is on. ADR 003 explains the flow.
import { paths } from "#common/paths";
import { createHash } from "node:crypto";
import type { AppContext } from "../context";
import type { Env } from "../env";
import type { OAuthProvider } from "../../db/types-social";
import { fixedT } from "../i18n";
import { LANG_LOCALE, LANG_TAG, isSiteLang } from "#common/i18n";

export interface ProviderLink {
  id: string;
  name: string;
  /** A same-origin path of the provider's icon, or "" (other addresses are not shown: CSP and no third-party origins). */
  icon: string;
  href: string;
  /** Accessible name of the button, translated ("Continue with {name}"). */
  label: string;
}

/** One entry of the `authenticationProviders` config value. */
interface ProviderEntry {
  id: string;
  name: string;
  icon: string;
  supportedLanguages: string[];
  supportedLocalizations: string[];
}

/** A provider ready for the authorization-code flow. */
export interface ResolvedProvider {
  id: string;
  name: string;
  issuer: string | null;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | null;
  jwksUri: string | null;
  clientId: string;
  clientSecret: string | null;
  scopes: string[];
}

/** The provider behind the feature flag npgle_snid. */
export const SNID_PROVIDER_ID = "snid";
/** The provider configured by OAUTH_DEMO_ISSUER (development and the browser tests). */
export const DEMO_PROVIDER_ID = "demo";
export const DEMO_DEFAULT_CLIENT_ID = "portal-demo";
export const DEMO_DEFAULT_CLIENT_SECRET = "portal-demo-secret";

const DISCOVERY_CACHE_SECONDS = 3600;
const ENV_PROVIDER_CHECK_SECONDS = 300;
const FETCH_TIMEOUT_MS = 10_000;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** OAUTH_<ID>_CLIENT_SECRET: the environment name of a provider's client secret. */
export function clientSecretEnvName(providerId: string): string {
  return `OAUTH_${providerId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_CLIENT_SECRET`;
}

/** The client secret: from the environment when set there, else the stored one (null: a public client, PKCE only). */
export function clientSecretFor(env: Env, row: Pick<OAuthProvider, "id" | "client_secret">): string | null {
  const fromEnv = env.OAUTH_CLIENT_SECRETS[clientSecretEnvName(row.id)];
  if (fromEnv) return fromEnv;
  if (row.client_secret) return row.client_secret;
  if (row.id === DEMO_PROVIDER_ID && env.OAUTH_DEMO_ISSUER) return DEMO_DEFAULT_CLIENT_SECRET;
  return null;
}

/** The demo provider described by the environment, if any. */
function demoProviderFromEnv(env: Env): { entry: ProviderEntry; issuer: string; clientId: string } | null {
  const issuer = env.OAUTH_DEMO_ISSUER;
  if (!issuer) return null;
  const name = env.OAUTH_DEMO_NAME ?? "Demo OIDC";
  return {
    issuer,
    clientId: env.OAUTH_DEMO_CLIENT_ID ?? DEMO_DEFAULT_CLIENT_ID,
    entry: { id: DEMO_PROVIDER_ID, name, icon: "", supportedLanguages: [], supportedLocalizations: [] },
  };
}

/**
 * Makes sure the environment's demo provider has its row (checked at most every few minutes).
 * Only an operator's OAUTH_DEMO_ISSUER creates it; nothing pretending to be a real provider is seeded.
 */
async function ensureEnvProvider(ctx: AppContext): Promise<void> {
  const demo = demoProviderFromEnv(ctx.env);
  if (!demo) return;
  const fingerprint = createHash("sha256").update(`${demo.issuer}|${demo.clientId}|${demo.entry.name}`).digest("hex").slice(0, 16);
  const key = `social:env-provider:${fingerprint}`;
  if (await ctx.cache.getJson<boolean>(key).catch(() => undefined)) return;
  const values = { name: demo.entry.name, issuer: demo.issuer, client_id: demo.clientId, enabled: true, updated_at: new Date() };
  await ctx.db
    .insertInto("oauth_providers")
    .values({ id: DEMO_PROVIDER_ID, ...values })
    .onConflict((oc) => oc.column("id").doUpdateSet(values))
    .execute();
  await ctx.cache.setJson(key, true, ENV_PROVIDER_CHECK_SECONDS).catch(() => undefined);
}

/** The listed providers (config value, plus the environment's demo provider), without `snid` unless its flag is on. */
async function listedProviders(ctx: AppContext): Promise<ProviderEntry[]> {
  const snapshot = await ctx.config.snapshot();
  const raw = Array.isArray(snapshot.config.authenticationProviders) ? (snapshot.config.authenticationProviders as unknown[]) : [];
  const entries: ProviderEntry[] = [];
  for (const item of raw) {
    if (!item || typeof item !== "object") continue;
    const o = item as Record<string, unknown>;
    const id = str(o.id).trim().toLowerCase();
    if (!id || entries.some((e) => e.id === id)) continue;
    entries.push({
      id,
      name: str(o.name),
      icon: str(o.icon),
      supportedLanguages: strList(o.supportedLanguages),
      supportedLocalizations: strList(o.supportedLocalizations),
    });
  }
  const demo = demoProviderFromEnv(ctx.env);
  if (demo && !entries.some((e) => e.id === DEMO_PROVIDER_ID)) entries.push(demo.entry);
  return entries.filter((e) => e.id !== SNID_PROVIDER_ID || snapshot.flags.npgle_snid);
}

/** Listed providers joined with their enabled rows, in the config's order. */
async function availableProviders(ctx: AppContext): Promise<{ entry: ProviderEntry; row: OAuthProvider }[]> {
  const entries = await listedProviders(ctx);
  if (!entries.length) return [];
  await ensureEnvProvider(ctx);
  const rows = await ctx.db
    .selectFrom("oauth_providers")
    .selectAll()
    .where(
      "id",
      "in",
      entries.map((e) => e.id),
    )
    .where("enabled", "=", true)
    .execute();
  return entries.flatMap((entry) => {
    const row = rows.find((r) => r.id === entry.id);
    return row ? [{ entry, row }] : [];
  });
}

const norm = (s: string) => s.trim().toLowerCase().replace(/_/g, "-");

/** A list allows everything when empty; languages match by prefix (en), locale (en_US) or tag (en-US). */
function supportsLanguage(list: string[], lang: string): boolean {
  if (!list.length) return true;
  const names = [lang, isSiteLang(lang) ? LANG_LOCALE[lang] : "", isSiteLang(lang) ? LANG_TAG[lang] : ""].filter(Boolean).map(norm);
  return list.some((l) => names.includes(norm(l)));
}

function supportsLocalization(list: string[], localization: string): boolean {
  return !list.length || list.some((l) => norm(l) === norm(localization));
}

/** Same-origin path only ("/icons/x.svg"); anything else (other origins, "//host", data:) is dropped. */
export function safeIconPath(icon: string): string {
  return /^\/(?![/\\])[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(icon) ? icon : "";
}

/** /api/auth/opa/{id}?redirect=…&origin=… (only the values present). */
export function providerHref(id: string, redirect?: string | null, origin?: string | null): string {
  return paths.api.socialSignIn(id, { redirect: redirect || null, origin: origin || null });
}

/** Providers to show on the sign-in and register pages for this language and localisation, with their /api/auth/opa links. */
export async function providersForPage(
  ctx: AppContext,
  opts: { lang: string; localization: string; redirect?: string | null; origin?: string | null },
): Promise<ProviderLink[]> {
  const available = await availableProviders(ctx);
  const t = fixedT(isSiteLang(opts.lang) ? opts.lang : "en", "social");
  return available
    .filter(({ entry, row }) => {
      const languages = entry.supportedLanguages.length ? entry.supportedLanguages : strList(row.supported_languages);
      const localizations = entry.supportedLocalizations.length ? entry.supportedLocalizations : strList(row.supported_localizations);
      return supportsLanguage(languages, opts.lang) && supportsLocalization(localizations, opts.localization);
    })
    .map(({ entry, row }) => {
      const name = entry.name || row.name;
      return {
        id: entry.id,
        name,
        icon: safeIconPath(entry.icon || row.icon),
        href: providerHref(entry.id, opts.redirect, opts.origin),
        label: t("continueWith", { name }),
      };
    });
}

interface DiscoveryDocument {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string | null;
  jwks_uri: string | null;
}

const trimSlash = (s: string) => s.replace(/\/+$/, "");

/** The issuer's OpenID Connect discovery document (cached an hour); its `issuer` must be the configured one. */
export async function discoverIssuer(ctx: AppContext, issuer: string): Promise<DiscoveryDocument> {
  const key = `social:oidc-discovery:${issuer}`;
  const cached = await ctx.cache.getJson<DiscoveryDocument>(key).catch(() => undefined);
  if (cached) return cached;
  const res = await fetch(`${trimSlash(issuer)}/.well-known/openid-configuration`, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`OIDC discovery of ${issuer} answered ${res.status}`);
  const body = (await res.json()) as Record<string, unknown>;
  if (trimSlash(str(body.issuer)) !== trimSlash(issuer)) throw new Error(`OIDC discovery of ${issuer} names another issuer`);
  if (!str(body.authorization_endpoint) || !str(body.token_endpoint)) throw new Error(`OIDC discovery of ${issuer} lacks endpoints`);
  const doc: DiscoveryDocument = {
    issuer: str(body.issuer),
    authorization_endpoint: str(body.authorization_endpoint),
    token_endpoint: str(body.token_endpoint),
    userinfo_endpoint: str(body.userinfo_endpoint) || null,
    jwks_uri: str(body.jwks_uri) || null,
  };
  await ctx.cache.setJson(key, doc, DISCOVERY_CACHE_SECONDS).catch(() => undefined);
  return doc;
}

/**
 * A provider a sign-in may use: listed (and, for snid, flagged on), enabled, with its endpoints
 * (explicit ones win over the issuer's discovery document). Null for anything else.
 */
export async function findProvider(ctx: AppContext, providerId: string): Promise<ResolvedProvider | null> {
  const id = providerId.trim().toLowerCase();
  const found = (await availableProviders(ctx)).find((p) => p.entry.id === id);
  if (!found) return null;
  const { entry, row } = found;
  const doc = row.issuer ? await discoverIssuer(ctx, row.issuer) : null;
  const authorizationEndpoint = row.authorization_endpoint ?? doc?.authorization_endpoint;
  const tokenEndpoint = row.token_endpoint ?? doc?.token_endpoint;
  if (!authorizationEndpoint || !tokenEndpoint) return null;
  return {
    id: row.id,
    name: entry.name || row.name,
    issuer: doc?.issuer ?? null,
    authorizationEndpoint,
    tokenEndpoint,
    userinfoEndpoint: row.userinfo_endpoint ?? doc?.userinfo_endpoint ?? null,
    jwksUri: row.jwks_uri ?? doc?.jwks_uri ?? null,
    clientId: row.client_id,
    clientSecret: clientSecretFor(ctx.env, row),
    scopes: strList(row.scopes),
  };
}
