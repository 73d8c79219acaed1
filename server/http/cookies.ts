// Every cookie the portal sets, defined once with its attributes, and the one parser of Cookie headers.
// Route modules, the API layer and Express middleware read and write cookies only through this module,
// so a cookie's flags (HttpOnly, SameSite, Secure behind HTTPS, lifetime) cannot drift between places.
import { parse, serialize } from "cookie";
import { WECHAT_QR_TTL_SECONDS } from "#common/auth/wechat";
import { isUnstorable } from "./input";

/**
 * All cookies of a Cookie header (a malformed percent-escape keeps its raw value instead of throwing). A
 * cookie whose value decodes to a NUL or a lone surrogate is dropped, as if absent: no cookie we set holds
 * one, and the database refuses them (a `draft=%00` cookie made the order form's queries fail; ADR 018).
 */
export function parseCookies(header: string | null | undefined): Record<string, string | undefined> {
  if (!header) return {};
  const all = parse(header, {
    decode: (value) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    },
  });
  for (const [name, value] of Object.entries(all)) if (value !== undefined && isUnstorable(value)) delete all[name];
  return all;
}

/** One cookie of a request (Web Request, or a Cookie header string). */
export function readCookie(from: Request | string | null | undefined, name: string): string | undefined {
  const header = typeof from === "string" || from == null ? from : from.headers.get("cookie");
  return parseCookies(header)[name];
}

/**
 * Whether cookies set on this request are Secure (issue 10 item 9): the request came over https, as the
 * connection or a trusted proxy's X-Forwarded-Proto says (`req.secure`, TRUST_PROXY), or the portal's public
 * address is https: then a plain-http request is the TLS proxy's hop, not the browser's, and a cookie
 * without Secure (the anonymous draft's bearer key, the session) could later leak over http.
 */
export function isSecureRequest(req: { secure: boolean }, env: { PUBLIC_URL?: string }): boolean {
  return req.secure || Boolean(env.PUBLIC_URL?.startsWith("https:"));
}

export interface CookieDefinition {
  readonly name: string;
  /** Set-Cookie for `value`; `secure` is true when the request came over HTTPS. */
  serialize(value: string, secure: boolean): string;
  /** Set-Cookie that removes the cookie. */
  clear(secure: boolean): string;
  read(from: Request | string | null | undefined): string | undefined;
}

type CookieOptions = { path?: string; httpOnly?: boolean; sameSite?: "lax" | "strict"; maxAge: number; secure?: boolean };

/**
 * `name=value; Path=…; HttpOnly; SameSite=…; Max-Age=…; Secure`: the attribute order the portal has always
 * sent (and its tests pin); the `cookie` package encodes the name and value, its own order differs.
 */
function write(name: string, value: string, options: CookieOptions): string {
  const parts = [serialize(name, value), `Path=${options.path ?? "/"}`];
  if (options.httpOnly) parts.push("HttpOnly");
  parts.push(`SameSite=${options.sameSite === "strict" ? "Strict" : "Lax"}`, `Max-Age=${Math.floor(options.maxAge)}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

function define(name: string, options: Omit<CookieOptions, "secure">): CookieDefinition {
  return {
    name,
    serialize: (value, secure) => write(name, value, { ...options, secure }),
    clear: (secure) => write(name, "", { ...options, maxAge: 0, secure }),
    read: (from) => readCookie(from, name),
  };
}

const YEAR = 365 * 24 * 60 * 60;

/** The cookies of the portal. Names are part of the product (spec 1 §4): do not rename. */
export const cookies = {
  /** Server-side session id (ADR 002): 128 random bits, lives as long as the session's absolute timeout. */
  session: define("sid", { httpOnly: true, maxAge: 12 * 60 * 60 }),
  /** The visitor's site language (spec 1 §4 "Start-up"); read by the browser too, so not HttpOnly. */
  lang: define("lang", { maxAge: YEAR }),
  /** Key of an anonymous visitor's order form (ADR 008). */
  draft: define("draft", { httpOnly: true, maxAge: 30 * 24 * 60 * 60 }),
  /** Revenue-share banner campaign (spec 1 §2 "rs" query parameter). */
  revenueShare: define("rs", { maxAge: 30 * 24 * 60 * 60 }),
  /** Binds a WeChat QR login to the browser that created it (ADR 004); outlives the QR code a little. */
  wechatBinding: define("wechat_bind", { httpOnly: true, maxAge: WECHAT_QR_TTL_SECONDS + 180 }),
} as const;

/** Set-Cookie for an ad-hoc cookie whose name is computed (the social sign-in flow cookies, ADR 003). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return write(name, value, options);
}
