// Who is asking: session cookie to user, and the guards loaders and actions use.
import { redirect, type AppLoadContext } from "@remix-run/node";
import { readSession, SESSION_COOKIE, type CurrentSession } from "#server/auth/session";
import { type SiteLang } from "#common/i18n";
import { langOfPath } from "#server/http/lang";
import { safeRedirect } from "#common/paths";
import { getUserView } from "#server/accounts/account";
import { shellState, wfoeExempt } from "#server/accounts/shell";
import { localizationForHost } from "#server/config";

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

// Loaders of one request share the Request object: read the session once per request.
const perRequest = new WeakMap<Request, Promise<CurrentSession | null>>();

export function getCurrentSession(request: Request, context: AppLoadContext): Promise<CurrentSession | null> {
  let pending = perRequest.get(request);
  if (!pending) {
    pending = readSession(context.app.db, readCookie(request, SESSION_COOKIE));
    perRequest.set(request, pending);
  }
  return pending;
}

/** The language prefix of the request path; a path with an unknown prefix is a 404. */
export function requireLang(request: Request): SiteLang {
  const lang = langOfPath(new URL(request.url).pathname);
  if (!lang) throw new Response("Not Found", { status: 404 });
  return lang;
}

/**
 * Sends anonymous visitors to /{lang}/login?redirect={path}{query}, and applies the shell rules that
 * move a signed-in user elsewhere: the local-entity migration page, and /account when details are missing.
 */
export async function requireUser(request: Request, context: AppLoadContext): Promise<CurrentSession> {
  const lang = requireLang(request);
  const session = await getCurrentSession(request, context);
  const url = new URL(request.url);
  if (!session) throw redirect(`/${lang}/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  const user = await getUserView(context.app, session.user.id);
  if (user) {
    const site = localizationForHost((await context.app.config.snapshot()).localizations, request.headers.get("host"));
    const shell = shellState(user, site.identity);
    const path = url.pathname.slice(lang.length + 1);
    if (shell.wfoeRequired && !wfoeExempt(path)) throw redirect(`/${lang}/researcher/wfoe-migration-status`);
    if (shell.redirectToAccount && !/^\/(account|logout|staff)(\/|$)/.test(path)) throw redirect(`/${lang}/account?missing=1`);
  }
  return session;
}

export async function requireStaff(request: Request, context: AppLoadContext): Promise<CurrentSession> {
  const session = await requireUser(request, context);
  if (!session.user.isStaff) throw new Response("Forbidden", { status: 403 });
  return session;
}

// Defined with the portal's URLs (the JSON API needs it too); re-exported for the pages that import it here.
export { safeRedirect } from "#common/paths";

/**
 * Where to go after signing in or registering (spec 1 §2): a same-site path, or an absolute address on an
 * allowed host (our localisations' sites and `allowedRedirectHosts`). Paths with /c/ belong to another
 * application area and need a full document navigation, as do other hosts.
 */
export function resolveRedirect(
  target: string | null | undefined,
  fallback: string,
  allowedHosts: string[],
): { url: string; document: boolean } {
  if (target && /^https?:\/\//i.test(target)) {
    try {
      const u = new URL(target);
      if (
        allowedHosts.map((h) => h.toLowerCase()).includes(u.host.toLowerCase()) ||
        allowedHosts.map((h) => h.toLowerCase()).includes(u.hostname.toLowerCase())
      ) {
        return { url: u.toString(), document: true };
      }
    } catch {
      /* not a URL */
    }
    return { url: fallback, document: false };
  }
  const url = safeRedirect(target, fallback);
  return { url, document: url.includes("/c/") };
}

/** The researcher's home directory. */
export function homeDirectory(lang: SiteLang): string {
  return `/${lang}/researcher`;
}
