// Requests whose shape no router reads, answered here once (issue 20 §3, ADR 047) instead of a 500 from
// whichever layer meets them first:
// - an asterisk target (`GET * HTTP/1.1`): Remix built `http://host*` and threw "Invalid URL". Only OPTIONS
//   may ask for `*` (RFC 9112 §3.2.4): it is told the methods; anything else is a 400;
// - an absolute-form target (`GET http://host/en/login`): Remix put the host in front of it a second time. It
//   is read as its path when it names this request's own host, else refused (a 400): the Host the portal
//   picks its site by and the one named must not disagree;
// - a page asked with a method Remix does not route (TRACE, which fetch's Request refuses outright, PROPFIND…):
//   a 405 with Allow. The API router answers its own paths' methods;
// - a body with a Content-Encoding (gzip, deflate, br…): no reader of the portal decodes one, so the compressed
//   bytes would be read as the form itself. Browsers never compress what they send: a 415 saying so
//   (`Accept-Encoding: identity`, RFC 7694), before any handler reads the body.
import type { Request, Response, NextFunction } from "express";
import { pickLanguage, type SiteLang } from "#common/i18n";
import { cookies } from "./cookies";
import { langOfPath } from "./lang";
import { renderBadRequestPage, type BadRequestReason } from "./fallback-pages";

/** The methods pages are served with: loaders (GET, HEAD) and actions (POST, PUT, PATCH, DELETE), as Remix routes them. */
export const PAGE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A request carries a body: a Content-Length above 0, or a chunked one. */
function hasBody(req: Request): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/** A Content-Encoding other than none or `identity`. */
export function encodedBody(contentEncoding: string | undefined): boolean {
  if (!contentEncoding) return false;
  return contentEncoding.split(",").some((e) => !["", "identity"].includes(e.trim().toLowerCase()));
}

/** The language of a refusal page: the path's, else the visitor's (an asterisk or `/%5C` names no page). */
export function refusalLang(req: Request): SiteLang {
  return langOfPath(req.url.split("?")[0]) ?? pickLanguage(cookies.lang.read(req.headers.cookie), req.get("accept-language"));
}

function refuse(req: Request, res: Response, status: number, error: string, reason: BadRequestReason) {
  res.status(status).setHeader("Cache-Control", "no-store");
  if (req.url.startsWith("/api/") || req.url === "/api") return void res.json({ error });
  res.type("html").send(renderBadRequestPage(refusalLang(req), reason));
}

export function oddRequests(req: Request, res: Response, next: NextFunction) {
  if (req.url === "*") {
    if (req.method === "OPTIONS") {
      res.setHeader("Allow", PAGE_METHODS.join(", "));
      return void res.status(204).end();
    }
    return refuse(req, res, 400, "invalid-request-target", "characters");
  }
  if (!req.url.startsWith("/")) {
    let url: URL | null = null;
    try {
      url = new URL(req.url);
    } catch {
      // not a URL at all
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.host !== req.headers.host?.toLowerCase())
      return refuse(req, res, 400, "invalid-request-target", "characters");
    req.url = req.originalUrl = url.pathname + url.search;
  }
  if (!req.url.startsWith("/api/") && !(PAGE_METHODS as readonly string[]).includes(req.method)) {
    res.setHeader("Allow", PAGE_METHODS.join(", "));
    return refuse(req, res, 405, "method-not-allowed", "method");
  }
  if (hasBody(req) && encodedBody(req.headers["content-encoding"])) {
    res.setHeader("Accept-Encoding", "identity");
    return refuse(req, res, 415, "unsupported-content-encoding", "encoding");
  }
  next();
}
