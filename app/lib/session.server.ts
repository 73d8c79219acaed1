// Who is asking: session cookie to user, and the guards loaders and actions use.
import { redirect, type AppLoadContext } from "@remix-run/node";
import { readSession, SESSION_COOKIE, type CurrentSession } from "../../server/auth/session";
import { isSiteLang, type SiteLang } from "./i18n";

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

export async function getCurrentSession(request: Request, context: AppLoadContext): Promise<CurrentSession | null> {
  return readSession(context.app.db, readCookie(request, SESSION_COOKIE));
}

/** The language prefix of the request path; a path with an unknown prefix is a 404. */
export function requireLang(request: Request): SiteLang {
  const first = new URL(request.url).pathname.split("/")[1];
  if (!isSiteLang(first)) throw new Response("Not Found", { status: 404 });
  return first;
}

/** Sends anonymous visitors to /{lang}/login?redirect={path}{query}. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<CurrentSession> {
  const lang = requireLang(request);
  const session = await getCurrentSession(request, context);
  if (!session) {
    const url = new URL(request.url);
    throw redirect(`/${lang}/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return session;
}

export async function requireStaff(request: Request, context: AppLoadContext): Promise<CurrentSession> {
  const session = await requireUser(request, context);
  if (!session.user.isStaff) throw new Response("Forbidden", { status: 403 });
  return session;
}

/**
 * A redirect target from a query parameter, accepted only when it stays on
 * this site (a path starting with a single "/"), so sign-in is never an open redirect.
 */
export function safeRedirect(target: string | null | undefined, fallback: string): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(target)) return fallback;
  return target;
}

/**
 * Where to go after signing in or registering (spec 1 §2): a same-site path, or an absolute address on an
 * allowed host (our localisations' sites and `allowedRedirectHosts`). Paths with /c/ belong to another
 * application area and need a full document navigation, as do other hosts.
 */
export function resolveRedirect(target: string | null | undefined, fallback: string, allowedHosts: string[]): { url: string; document: boolean } {
  if (target && /^https?:\/\//i.test(target)) {
    try {
      const u = new URL(target);
      if (allowedHosts.map((h) => h.toLowerCase()).includes(u.host.toLowerCase()) || allowedHosts.map((h) => h.toLowerCase()).includes(u.hostname.toLowerCase())) {
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
