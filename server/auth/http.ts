// The HTTP end of a sign-in, one way for the pages (app/lib/sign-in.server.ts) and the JSON API
// (server/auth/api.ts): the session and language cookies from the one cookies module (Secure when the
// request is), and the 303 to where the visitor was going (spec 1 §2 redirect rules).
import { isSiteLang, type SiteLang } from "#common/i18n";
import { homeDirectory, resolveRedirect } from "#common/auth/redirect";
import { cookies } from "../http/cookies";
import type { Scope } from "../scope";
import { allowedRedirectHosts } from "./sign-in";

/** Set-Cookie of a new session (the cookie is defined once, in server/http/cookies.ts). */
export function sessionCookie(token: string, secure: boolean): string {
  return cookies.session.serialize(token, secure);
}

/** Set-Cookie headers of a new session: the session cookie and the user's site language. */
export function signedInCookies(token: string, lang: string, secure: boolean): string[] {
  return [cookies.session.serialize(token, secure), cookies.lang.serialize(lang, secure)];
}

/**
 * 303 to the redirect target (same-site path or an allowed host), else `fallback` (the home directory).
 * Another host or another application area (/c/) needs a full document load even after a Remix fetch.
 */
export async function signedInRedirectResponse(
  scope: Pick<Scope, "app" | "secure">,
  options: { token: string; lang: SiteLang; target?: string | null; fallback?: string; extraCookies?: string[] },
): Promise<Response> {
  const headers = new Headers();
  for (const c of [...signedInCookies(options.token, options.lang, scope.secure), ...(options.extraCookies ?? [])]) {
    headers.append("Set-Cookie", c);
  }
  const { url, document } = resolveRedirect(
    options.target,
    options.fallback ?? homeDirectory(options.lang),
    await allowedRedirectHosts(scope.app),
  );
  headers.set("Location", url);
  // The header Remix's redirectDocument sets: a client-side navigation becomes a document load.
  if (document) headers.set("X-Remix-Reload-Document", "true");
  return new Response(null, { status: 303, headers });
}

/**
 * Spec 1 §4 "Start-up": a `logout` query parameter on any page signs the user out. A GET changes no state
 * (ADR 020), so a page request carrying it, from a browser with a session cookie, is sent to the sign-out
 * page, whose form (a POST) signs out; without a session the page shows as usual. Null: not such a request.
 */
export function logoutParamRedirect(request: {
  method: string;
  path: string;
  query: URLSearchParams;
  cookieHeader?: string;
}): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (!request.query.has("logout") || request.path.endsWith(".data") || request.path.startsWith("/api/")) return null;
  const lang = request.path.split("/")[1];
  if (!isSiteLang(lang) || !cookies.session.read(request.cookieHeader)) return null;
  return `/${lang}/logout`;
}
