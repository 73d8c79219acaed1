// The request scope of a page's loader or action (server/scope.ts): the session, the anonymous draft key,
// the page's language (its URL prefix) and localisation. Loaders of one request share one scope through
// the load context (Remix gives each loader its own copy of the Request, ADR 010).
import type { AppLoadContext } from "@remix-run/node";
import { buildScope, type Scope } from "#server/scope";
import { getCurrentSession, requireLang } from "./session.server";

const scopes = new WeakMap<object, { method: string; scope: Promise<Scope> }>();

export function pageScope(request: Request, context: AppLoadContext): Promise<Scope> {
  const lang = requireLang(request);
  const method = request.method.toUpperCase();
  const cached = scopes.get(context);
  if (cached && cached.method === method) return cached.scope;
  const scope = buildScope(context.app, {
    cookieHeader: request.headers.get("cookie"),
    host: request.headers.get("host"),
    lang,
    ip: context.ip,
    secure: context.secure,
    userAgent: request.headers.get("user-agent"),
    memoize: method === "GET" || method === "HEAD",
    session: getCurrentSession(request, context),
  });
  scopes.set(context, { method, scope });
  return scope;
}
