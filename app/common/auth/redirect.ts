// Where a visitor goes after signing in or registering (spec 1 §2). Pure rules shared by the pages
// (app/lib/sign-in.server.ts) and the JSON API (server/auth/api.ts), so both follow the same targets.
import type { SiteLang } from "../i18n";
import { paths, safeRedirect } from "../paths";

// safeRedirect lives with the portal's URLs (app/common/paths.ts); re-exported for the redirect rules' callers.
export { safeRedirect };

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
