// A small but real OAuth 2.0 / OpenID Connect authorization server for the tests (node:http + jose),
// on 127.0.0.1: discovery, /authorize (auto-approves the configured test user, or denies),
// /token (client authentication, one-time codes, PKCE S256), /userinfo and the JWKS.
//
// The test user is set per test with setUser(), or per browser with the cookie `oidc_test_user`
// (base64url JSON of the user) — the browser suite shares one server between its workers.
// Denial: setDeny(true), the query parameter deny=1, or the cookie `oidc_test_deny=1`.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

export interface OidcTestUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

export interface OidcServerOptions {
  host?: string;
  /** 0 (default): a random free port. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs (exact match). */
  redirectUris?: string[];
  user?: OidcTestUser | null;
  /** Do not keep the process alive for this server. */
  unref?: boolean;
}

export interface OidcServer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  setUser(user: OidcTestUser | null): void;
  setDeny(deny: boolean): void;
  setRedirectUris(uris: string[]): void;
  /** Requests seen, for assertions. */
  seen: { authorize: URLSearchParams[]; token: URLSearchParams[]; userinfo: number };
  /** Tests (of any process) that said they are using this server: POST/DELETE /__test/lease?id=… */
  activeLeases(): number;
  close(): Promise<void>;
}

/** How long a lease lasts when its test never returns it. */
const LEASE_MS = 120_000;

export const TEST_USER_COOKIE = "oidc_test_user";
export const TEST_DENY_COOKIE = "oidc_test_deny";

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  user: OidcTestUser;
  nonce: string | null;
  scope: string;
  expiresAt: number;
  used: boolean;
}

const b64url = (buf: Buffer) => buf.toString("base64url");
const random = () => b64url(randomBytes(24));

function cookies(req: http.IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

async function readBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(302, { location, "cache-control": "no-store" });
  res.end();
}

/** Encodes a user for the `oidc_test_user` cookie. */
export function encodeTestUser(user: OidcTestUser): string {
  return Buffer.from(JSON.stringify(user)).toString("base64url");
}

function claimsOf(user: OidcTestUser): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.sub };
  for (const k of ["email", "email_verified", "given_name", "family_name", "name"] as const) if (user[k] !== undefined) claims[k] = user[k];
  if (claims.name === undefined && (user.given_name || user.family_name))
    claims.name = [user.given_name, user.family_name].filter(Boolean).join(" ");
  return claims;
}

export async function startOidcServer(options: OidcServerOptions = {}): Promise<OidcServer> {
  const host = options.host ?? "127.0.0.1";
  const clientId = options.clientId ?? "portal-test";
  const clientSecret = options.clientSecret ?? random();
  let redirectUris = options.redirectUris ?? [];
  let user: OidcTestUser | null = options.user ?? null;
  let deny = false;
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = random().slice(0, 12);
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, { user: OidcTestUser; expiresAt: number }>();
  const seen: OidcServer["seen"] = { authorize: [], token: [], userinfo: 0 };
  let issuer = "";
  const leases = new Map<string, number>();

  function authorize(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const q = url.searchParams;
    seen.authorize.push(new URLSearchParams(q));
    const redirectUri = q.get("redirect_uri") ?? "";
    // An unknown client or redirect URI is never redirected to (RFC 6749 §4.1.2.1).
    if (q.get("client_id") !== clientId) return json(res, 400, { error: "invalid_client" });
    if (!redirectUris.includes(redirectUri))
      return json(res, 400, { error: "invalid_request", error_description: "redirect_uri is not registered" });
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      if (q.get("state") !== null) target.searchParams.set("state", q.get("state")!);
      target.searchParams.set("iss", issuer);
      redirect(res, target.toString());
    };
    if (q.get("response_type") !== "code") return back({ error: "unsupported_response_type" });
    if (!q.get("code_challenge") || q.get("code_challenge_method") !== "S256")
      return back({ error: "invalid_request", error_description: "PKCE S256 is required" });
    const jar = cookies(req);
    if (deny || q.get("deny") === "1" || jar.get(TEST_DENY_COOKIE) === "1")
      return back({ error: "access_denied", error_description: "The user denied the request" });
    let who = user;
    const fromCookie = jar.get(TEST_USER_COOKIE);
    if (fromCookie) {
      try {
        who = JSON.parse(Buffer.from(decodeURIComponent(fromCookie), "base64url").toString("utf8")) as OidcTestUser;
      } catch {
        return json(res, 400, { error: "invalid_request", error_description: "bad test user cookie" });
      }
    }
    if (!who) return back({ error: "login_required" });
    const code = random();
    codes.set(code, {
      clientId,
      redirectUri,
      challenge: q.get("code_challenge")!,
      user: who,
      nonce: q.get("nonce"),
      scope: q.get("scope") ?? "",
      expiresAt: Date.now() + 60_000,
      used: false,
    });
    back({ code });
  }

  async function token(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== "POST") return json(res, 405, { error: "invalid_request" });
    const body = await readBody(req);
    seen.token.push(body);
    // client_secret_basic (RFC 6749 §2.3.1; also unencoded, as some clients send it) or client_secret_post.
    let id = body.get("client_id");
    let secret = body.get("client_secret");
    const auth = req.headers.authorization ?? "";
    if (auth.startsWith("Basic ")) {
      const decoded = Buffer.from(auth.slice(6), "base64").toString("utf8");
      const i = decoded.indexOf(":");
      const dec = (s: string) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, "%20"));
        } catch {
          return s;
        }
      };
      id = dec(decoded.slice(0, i));
      secret = dec(decoded.slice(i + 1));
    }
    if (id !== clientId || secret !== clientSecret)
      return json(res, 401, { error: "invalid_client" }, { "www-authenticate": 'Basic realm="test"' });
    if (body.get("grant_type") !== "authorization_code") return json(res, 400, { error: "unsupported_grant_type" });
    const issued = codes.get(body.get("code") ?? "");
    if (!issued || issued.used || issued.expiresAt < Date.now() || issued.clientId !== id)
      return json(res, 400, { error: "invalid_grant" });
    issued.used = true;
    if (body.get("redirect_uri") !== issued.redirectUri)
      return json(res, 400, { error: "invalid_grant", error_description: "redirect_uri differs" });
    const verifier = body.get("code_verifier") ?? "";
    if (b64url(createHash("sha256").update(verifier).digest()) !== issued.challenge)
      return json(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
    const accessToken = random();
    accessTokens.set(accessToken, { user: issued.user, expiresAt: Date.now() + 300_000 });
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({ ...claimsOf(issued.user), ...(issued.nonce ? { nonce: issued.nonce } : {}) })
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(issuer)
      .setAudience(clientId)
      .setSubject(issued.user.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 300, id_token: idToken, scope: issued.scope });
  }

  function userinfo(req: http.IncomingMessage, res: http.ServerResponse) {
    seen.userinfo++;
    const auth = req.headers.authorization ?? "";
    const found = auth.startsWith("Bearer ") ? accessTokens.get(auth.slice(7)) : undefined;
    if (!found || found.expiresAt < Date.now())
      return json(res, 401, { error: "invalid_token" }, { "www-authenticate": 'Bearer error="invalid_token"' });
    json(res, 200, claimsOf(found.user));
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer || "http://localhost");
    const route = `${req.method} ${url.pathname}`;
    const handle = async () => {
      if (route === "GET /.well-known/openid-configuration") {
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
          scopes_supported: ["openid", "email", "profile"],
          claims_supported: ["sub", "email", "email_verified", "given_name", "family_name", "name"],
        });
      }
      if (route === "GET /jwks") return json(res, 200, { keys: [publicJwk] });
      if (url.pathname === "/__test/lease" && url.searchParams.get("id")) {
        const id = url.searchParams.get("id")!;
        if (req.method === "POST") leases.set(id, Date.now() + LEASE_MS);
        else if (req.method === "DELETE") leases.delete(id);
        return json(res, 200, { ok: true });
      }
      if (route === "GET /authorize") return authorize(req, res, url);
      if (url.pathname === "/token") return token(req, res);
      if (url.pathname === "/userinfo") return userinfo(req, res);
      json(res, 404, { error: "not_found" });
    };
    handle().catch((error) => {
      if (!res.headersSent) json(res, 500, { error: "server_error", error_description: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  if (options.unref) server.unref();
  const address = server.address() as AddressInfo;
  issuer = `http://${host}:${address.port}`;

  return {
    issuer,
    clientId,
    clientSecret,
    setUser: (u) => {
      user = u;
    },
    setDeny: (d) => {
      deny = d;
    },
    setRedirectUris: (uris) => {
      redirectUris = uris;
    },
    seen,
    activeLeases: () => [...leases.values()].filter((until) => until > Date.now()).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * For test runners whose workers share one fixed port (the browser suite): starts the server there,
 * or, when another worker already did, checks that it is one of ours and uses it; then leases it for
 * the test `leaseId`. The worker that started the server should keep its process alive until
 * activeLeases() is 0 (other workers' tests may be half-way through a sign-in). The server never
 * keeps the process alive by itself.
 */
export async function ensureOidcServer(
  options: OidcServerOptions & { port: number; leaseId: string },
): Promise<{ issuer: string; server: OidcServer | null }> {
  const host = options.host ?? "127.0.0.1";
  const issuer = `http://${host}:${options.port}`;
  const probe = async () => {
    try {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(2000) });
      return res.ok && ((await res.json()) as { issuer?: string }).issuer === issuer;
    } catch {
      return false;
    }
  };
  const lease = async () => {
    try {
      return (
        await fetch(`${issuer}/__test/lease?id=${encodeURIComponent(options.leaseId)}`, {
          method: "POST",
          signal: AbortSignal.timeout(2000),
        })
      ).ok;
    } catch {
      return false;
    }
  };
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    let server: OidcServer | null = null;
    if (!(await probe())) {
      try {
        server = await startOidcServer({ ...options, host, unref: true });
      } catch (error) {
        lastError = error;
        if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      }
    }
    // The owner may be closing between our probe and the lease: then try again (and start our own).
    if (await lease()) return { issuer, server };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the test OIDC server on ${issuer} is not available: ${String(lastError ?? "lease refused")}`);
}

/** Ends a lease taken by ensureOidcServer. */
export async function releaseOidcServer(issuer: string, leaseId: string): Promise<void> {
  await fetch(`${issuer}/__test/lease?id=${encodeURIComponent(leaseId)}`, { method: "DELETE", signal: AbortSignal.timeout(2000) }).catch(
    () => undefined,
  );
}
