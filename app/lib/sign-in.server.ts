// The end of every way of signing in (password, registration, social, WeChat):
// session cookie, language cookie, and the redirect rules of spec 1 §2.
import { redirect, redirectDocument, type AppLoadContext } from "@remix-run/node";
import { sessionCookie } from "#server/auth/session";
import { LANG_COOKIE, type SiteLang } from "#common/i18n";
import { homeDirectory, readCookie, resolveRedirect } from "./session.server";
import { claimDrafts, DRAFT_COOKIE } from "#server/order-form";
import { claimDraftFiles } from "#server/documents/storage";

export async function allowedRedirectHosts(context: AppLoadContext): Promise<string[]> {
  const { config, localizations } = await context.app.config.snapshot();
  return [...localizations.map((l) => l.secureSite), ...config.allowedRedirectHosts];
}

/** Anonymous order forms and uploads of this browser become the user's (claimed on sign-in or registration). */
export async function claimAnonymousWork(context: AppLoadContext, request: Request, userId: number): Promise<void> {
  const draftKey = readCookie(request, DRAFT_COOKIE);
  if (!draftKey) return;
  await claimDrafts(context.app.db, draftKey, userId);
  await claimDraftFiles(context.app, draftKey, userId);
}

export async function signedInRedirect(
  context: AppLoadContext,
  options: { token: string; lang: SiteLang; target?: string | null; fallback?: string; claim?: { request: Request; userId: number } },
): Promise<Response> {
  if (options.claim) await claimAnonymousWork(context, options.claim.request, options.claim.userId);
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(options.token, context.secure));
  headers.append("Set-Cookie", `${LANG_COOKIE}=${options.lang}; Path=/; Max-Age=31536000; SameSite=Lax${context.secure ? "; Secure" : ""}`);
  const { url, document } = resolveRedirect(
    options.target,
    options.fallback ?? homeDirectory(options.lang),
    await allowedRedirectHosts(context),
  );
  return document ? redirectDocument(url, { status: 303, headers }) : redirect(url, { status: 303, headers });
}
