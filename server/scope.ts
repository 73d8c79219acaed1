// The request scope: who acts, for whom, in which language and localisation, plus a per-request memo.
// Built one way for pages (app/lib/scope.server.ts, from the Remix request and load context) and one way
// for the JSON API (server/http/api, from the Express request). Domain functions that act for someone take
// it first; process-level work takes the AppContext alone.
import type { SiteLang } from "#common/i18n";
import type { AppContext } from "./context";
import { readSession, type CurrentSession } from "./accounts/session";
import { localizationForHost } from "./config";
import { cookies, parseCookies } from "./http/cookies";

export interface Scope {
  app: AppContext;
  /** The signed-in session (the user, and the staff member viewing as them), or null for a visitor. */
  session: CurrentSession | null;
  userId: number | null;
  /** Set when staff view the portal as this user (spec 1 §1): some rules relax, every action is audited. */
  impersonatorId: number | null;
  /** An anonymous visitor's order-form key (the draft cookie), when the browser has one. */
  draftKey: string | null;
  lang: SiteLang;
  /** The acting user's localisation, else the one of the site the request came to (by Host). */
  localization: string;
  host: string | null;
  ip: string;
  /** The request came over HTTPS (directly or through a trusted proxy): cookies get Secure. */
  secure: boolean;
  userAgent: string | null;
  /**
   * The browser's session cookie as sent (sign-out and "view as" revoke it), read here so that domain code needs
   * no cookie names (server/http/cookies.ts is the HTTP layer's: ADR 057).
   */
  sessionToken: string | null;
  /** All cookies of the request, parsed once. */
  cookies: Record<string, string | undefined>;
  /**
   * Per-request memo: loaders of one page share one price, one step context… Only reads may be memoised,
   * and keys must change when the data does (e.g. include the row's version).
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export interface ScopeRequest {
  cookieHeader: string | null | undefined;
  host: string | null | undefined;
  lang: SiteLang;
  ip: string;
  secure: boolean;
  userAgent: string | null | undefined;
  /** Memoise reads (GET and HEAD requests); writes always compute afresh. */
  memoize: boolean;
  /** The session when the caller has already read it (pages share one read per request). */
  session?: Promise<CurrentSession | null>;
}

/** Runs `compute` every time: the memo of a request that changes data. */
const noMemo = <T>(_key: string, compute: () => Promise<T>) => compute();

function memoMap(): Scope["memo"] {
  const map = new Map<string, Promise<unknown>>();
  return <T>(key: string, compute: () => Promise<T>) => {
    let hit = map.get(key) as Promise<T> | undefined;
    if (!hit) map.set(key, (hit = compute()));
    return hit;
  };
}

export async function buildScope(app: AppContext, request: ScopeRequest): Promise<Scope> {
  const all = parseCookies(request.cookieHeader);
  const [session, snapshot] = await Promise.all([request.session ?? readSession(app.db, all[cookies.session.name]), app.config.snapshot()]);
  return {
    app,
    session,
    userId: session?.user.id ?? null,
    impersonatorId: session?.impersonatorId ?? null,
    draftKey: all[cookies.draft.name] || null,
    lang: request.lang,
    localization: session?.user.localization ?? localizationForHost(snapshot.localizations, request.host).identity,
    host: request.host ?? null,
    ip: request.ip,
    secure: request.secure,
    userAgent: request.userAgent ?? null,
    sessionToken: all[cookies.session.name] || null,
    cookies: all,
    memo: request.memoize ? memoMap() : noMemo,
  };
}

/** A scope for work done on someone's behalf outside a request (jobs, scripts, tests). */
export function systemScope(app: AppContext, init: Partial<Omit<Scope, "app" | "memo">> & { lang: SiteLang; localization: string }): Scope {
  return {
    app,
    session: null,
    userId: null,
    impersonatorId: null,
    draftKey: null,
    host: null,
    ip: "127.0.0.1",
    secure: false,
    userAgent: null,
    sessionToken: null,
    cookies: {},
    ...init,
    memo: noMemo,
  };
}
