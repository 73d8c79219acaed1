// The end of every way of signing in on a page (password, registration, reset link, WeChat, staff "view
// as"): the session and language cookies and the redirect rules of spec 1 §2. The work itself is shared
// with the JSON API: claiming anonymous work in server/auth/sign-in.ts, the answer in server/auth/http.ts.
import type { AppLoadContext } from "@remix-run/node";
import type { SiteLang } from "#common/i18n";
import { allowedRedirectHosts as hostsOf, claimAnonymousWork as claim } from "#server/auth/sign-in";
import { signedInRedirectResponse } from "#server/auth/http";
import { pageScope } from "./scope.server";

export function allowedRedirectHosts(context: AppLoadContext): Promise<string[]> {
  return hostsOf(context.app);
}

/** Anonymous order forms and uploads of this browser become the user's (claimed on sign-in or registration). */
export async function claimAnonymousWork(context: AppLoadContext, request: Request, userId: number): Promise<void> {
  await claim(await pageScope(request, context), userId);
}

/**
 * 303 after a sign-in, with the session and language cookies. `claim` is for sign-ins that have not
 * claimed the browser's anonymous work yet (the domain's signIn and register functions already do).
 */
export async function signedInRedirect(
  context: AppLoadContext,
  options: {
    token: string;
    lang: SiteLang;
    target?: string | null;
    fallback?: string;
    claim?: { request: Request; userId: number };
    extraCookies?: string[];
  },
): Promise<Response> {
  if (options.claim) await claimAnonymousWork(context, options.claim.request, options.claim.userId);
  return signedInRedirectResponse({ app: context.app, secure: context.secure }, options);
}
