// Who is asking: session cookie to user, and the guards loaders and actions use.
import { redirect, type AppLoadContext } from "@remix-run/node";
import { readSession, type CurrentSession } from "#server/accounts/session";
import { type SiteLang } from "#common/i18n";
import { langOfPath } from "#server/http/lang";
import { getUserView } from "#server/accounts/account";
import { shellState, wfoeExempt } from "#server/accounts/shell";
import { localizationForHost } from "#server/config";
import { cookies } from "#server/http/cookies";
import { paths } from "#common/paths";

// The session is read once per request. Remix hands each loader a Request object of its own, so a read-only request
// (GET, HEAD: no action can change the session between loaders) is keyed by its load context, shared by all its
// loaders; an action's request by its Request, so the loaders that revalidate after an action read afresh.
const perRequest = new WeakMap<object, Promise<CurrentSession | null>>();

export function getCurrentSession(request: Request, context: AppLoadContext): Promise<CurrentSession | null> {
  const key: object = context.readOnly ? context : request;
  let pending = perRequest.get(key);
  if (!pending) {
    pending = readSession(context.app.db, cookies.session.read(request));
    perRequest.set(key, pending);
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
  if (!session) throw redirect(paths.login(lang, { redirect: url.pathname + url.search }));
  const user = await getUserView(context.app, session.user.id);
  if (user) {
    const { localizations } = await context.app.config.snapshot();
    const shell = shellState(user, localizationForHost(localizations, request.headers.get("host")).identity, localizations);
    const path = url.pathname.slice(lang.length + 1);
    if (shell.wfoeRequired && !wfoeExempt(path)) throw redirect(paths.wfoeMigration(lang));
    if (shell.redirectToAccount && !/^\/(account|logout|staff)(\/|$)/.test(path)) throw redirect(paths.account(lang, { missing: 1 }));
  }
  return session;
}

export async function requireStaff(request: Request, context: AppLoadContext): Promise<CurrentSession> {
  const session = await requireUser(request, context);
  if (!session.user.isStaff) throw new Response("Forbidden", { status: 403 });
  return session;
}

// The redirect rules are isomorphic and shared with the JSON API.
export { homeDirectory, resolveRedirect, safeRedirect } from "#common/auth/redirect";
