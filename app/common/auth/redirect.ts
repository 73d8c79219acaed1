// Where a visitor goes after signing in or registering (spec 1 §2). Pure rules shared by the pages
// (app/lib/sign-in.server.ts) and the JSON API (server/auth/api.ts), so both follow the same targets.
import type { SiteLang } from "../i18n";
import { paths } from "../paths";

/**
 * A redirect target from a query parameter, accepted only when it stays on
 * this site (a path starting with a single "/"), so sign-in is never an open redirect.
 */
export function safeRedirect(target: string | null | undefined, fallback: string): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f]/.test(target)) return fallback;
  return target;
}

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
      const hosts = allowedHosts.map((h) => h.toLowerCase());
      if (hosts.includes(u.host.toLowerCase()) || hosts.includes(u.hostname.toLowerCase())) {
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
  return paths.researcher(lang);
}
