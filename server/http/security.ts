// Security headers and the cross-site request check.
import { randomBytes } from "node:crypto";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Where Word add-ins must take office.js from (ADR 074): allowed on the add-in's task pane inside Word only. */
export const OFFICE_JS_ORIGIN = "https://appsforoffice.microsoft.com";

/** Content-Security-Policy without any third-party origin (the portal must work in mainland China). */
export function contentSecurityPolicy(
  nonce: string,
  options: { dev?: boolean; imgOrigins?: string[]; scriptOrigins?: string[] } = {},
): string {
  const connect = options.dev ? "'self' ws://127.0.0.1:* ws://localhost:*" : "'self'";
  return [
    "default-src 'self'",
    // The one exception (ADR 074): the Word add-in's task pane opened by Word takes office.js from Microsoft.
    `script-src 'self' 'nonce-${nonce}'${options.scriptOrigins?.length ? " " + options.scriptOrigins.join(" ") : ""}`,
    // Stylesheets from our origin only: app/ has no inline styles (a unit test enforces it) and none are
    // injected at runtime (the e2e guard fails on any CSP refusal), so no 'unsafe-inline' (issue 10 §15).
    "style-src 'self'",
    // Our other localisations' own sites serve the logout images (first party, not third party).
    `img-src 'self' data: blob:${options.imgOrigins?.length ? " " + options.imgOrigins.join(" ") : ""}`,
    "font-src 'self'",
    `connect-src ${connect}`,
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/** What applies to a script or stylesheet of the build: no sniffing, no other origin embedding it, HTTPS only. */
export function assetSecurityHeaders(options: { secure: boolean }): Record<string, string> {
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff", "Cross-Origin-Resource-Policy": "same-origin" };
  if (options.secure) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** A document's headers: the asset's, and what only a document needs (its CSP, framing, referrer and opener rules). */
export function securityHeaders(
  nonce: string,
  options: { secure: boolean; dev?: boolean; imgOrigins?: string[]; scriptOrigins?: string[] },
): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, options),
    "X-Frame-Options": "SAMEORIGIN",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...assetSecurityHeaders(options),
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `scheme://host[:port]` of an address, as a browser writes it in Origin (default port dropped, lower case); null when unreadable. */
function originOf(address: string): string | null {
  try {
    const origin = new URL(address).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Refuses state-changing requests sent by another site: the browser's
 * Sec-Fetch-Site header when present, else the Origin header compared, whole
 * (scheme, host and port: `https://host` is another origin than `http://host`,
 * issue 10 item 11), with the portal's own origins. Requests with neither
 * (curl, server-to-server) pass: they carry no victim's cookies by accident.
 */
export function isCrossSiteRequest(
  req: { method: string; headers: Record<string, string | string[] | undefined> },
  ownOrigins: readonly string[],
): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  const fetchSite = req.headers["sec-fetch-site"];
  if (typeof fetchSite === "string" && fetchSite !== "") {
    return !(fetchSite === "same-origin" || fetchSite === "none");
  }
  const origin = req.headers["origin"];
  if (typeof origin === "string" && origin !== "") {
    const claimed = originOf(origin);
    if (!claimed) return true;
    return !ownOrigins.some((own) => originOf(own) === claimed);
  }
  return false;
}
