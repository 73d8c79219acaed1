// The HTTP layer: request ids and logs, security headers, the cross-site
// check, health and outage handling, language redirects, static files, then
// Remix for pages, the JSON API and downloads.
import { installRouteMatchMemo } from "./http/route-matching";
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import express, { type Request, type Response, type NextFunction } from "express";
import compression from "compression";
import { precompressedAssets } from "./http/precompressed";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { AppContext } from "./context";
import { OFFICE_JS_ORIGIN, assetSecurityHeaders, createNonce, isCrossSiteRequest, securityHeaders } from "./http/security";
import { languageRedirect, langOfPath } from "./http/lang";
import { RETRY_AFTER_SECONDS, unavailableStatus } from "./health";
import { cookies, isSecureRequest } from "./http/cookies";
import { renderUnavailablePage, renderPlainErrorPage, renderBadRequestPage } from "./http/fallback-pages";
import { urlProblem } from "./http/input";
import { oddRequests, refusalLang } from "./http/odd-requests";
import { closeOnEarlyAnswer } from "./http/early-answer";
import { otherSiteOrigins } from "./accounts/localization";
import { localizationForHost } from "./config";
import { createApiRouter } from "./http/api/router";
import { API_TABLES } from "./api-tables";
import { logoutParamRedirect } from "./auth/http";
import { downgradeBadInputStatus } from "./http/bad-input";
import { testModeProviders } from "./payments/providers";
import { runInRequest } from "./request-context";

export interface HttpAppOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder with the client build (assets); undefined in dev, where Vite serves them. */
  clientDir?: string;
  /** Extra middleware placed before Remix (Vite's dev middleware). */
  devMiddleware?: express.RequestHandler;
  rootDir: string;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{8,64}$/;

export function createHttpApp(ctx: AppContext, options: HttpAppOptions) {
  // Route matching is memoised (ADR 010): the same tree is matched several times per request.
  installRouteMatchMemo();
  const app = express();
  const dev = Boolean(options.devMiddleware);
  app.disable("x-powered-by");
  app.set("trust proxy", ctx.env.TRUST_PROXY);

  // An answer that starts before a large request body was read closes the connection (ADR 025).
  app.use(closeOnEarlyAnswer);

  // Request id and one structured log line per request.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.logger = ctx.logger.child({ requestId });
    res.setHeader("X-Request-Id", requestId);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? "error" : "info";
      res.locals.logger[level](
        { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        "request",
      );
    });
    // Everything this request starts carries its id, so a failure outside any handler is logged with it (issue 20 §2).
    runInRequest({ requestId, method: req.method, url: req.originalUrl }, next);
  });

  // Security headers with a fresh CSP nonce for each response.
  app.use(async (req, res, next) => {
    // A build asset is a script or stylesheet, never a document: the document-only headers (CSP, frame, referrer,
    // permissions and opener policies: ~0.9 KiB) would ride along with each of a page's ~20 scripts on a slow link
    // for nothing (ADR 083). It keeps what applies to a subresource.
    if (options.clientDir && req.path.startsWith("/assets/")) {
      for (const [k, v] of Object.entries(assetSecurityHeaders({ secure: isSecureRequest(req, ctx.env) }))) res.setHeader(k, v);
      return next();
    }
    const nonce = createNonce();
    res.locals.nonce = nonce;
    let imgOrigins: string[] = [];
    if (req.path.endsWith("/logout")) {
      // The signed-out page loads logout images from the other localisations' sites.
      const snapshot = await ctx.config.snapshot().catch(() => null);
      const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
      const all = snapshot?.localizations ?? [];
      const here = all.length ? localizationForHost(all, req.get("host")) : undefined;
      imgOrigins = otherSiteOrigins(all, here?.identity, url);
    }
    // The Word add-in's task pane, opened by Word (?host=word), loads office.js from Microsoft (ADR 074); no other page.
    const scriptOrigins =
      /^\/[a-z]{2}\/researcher\/digital-editing\/add-in$/.test(req.path) && req.query.host === "word" ? [OFFICE_JS_ORIGIN] : [];
    const headers = securityHeaders(nonce, { secure: isSecureRequest(req, ctx.env), dev, imgOrigins, scriptOrigins });
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    next();
  });

  app.use(compression());

  // Request shapes no router reads: an asterisk or absolute-form target, a method no page takes, a compressed
  // body (ADR 047). First: an absolute-form target is read as its path here.
  app.use(oddRequests);

  // A URL no router can read (a percent-escape that does not decode, a NUL in the path or the query) is a
  // translated 400 here, once, instead of a 500 from whichever page or endpoint meets it (ADR 018).
  app.use((req, res, next) => {
    const problem = urlProblem(req.originalUrl);
    if (!problem) return next();
    res.status(400).setHeader("Cache-Control", "no-store");
    if (req.originalUrl.startsWith("/api/")) return void res.json({ error: problem });
    res.type("html").send(renderBadRequestPage(refusalLang(req)));
  });

  app.get("/healthz", async (_req, res) => {
    // The database is probed on a connection of its own: a busy pool is not "down" (ADR 048).
    const [{ ok: database, ...load }, redis] = await Promise.all([ctx.health.probe(), ctx.cache.ping()]);
    const body = {
      status: database ? (redis ? "ok" : "degraded") : "down",
      database: { kind: ctx.dbKind, ok: database, ...load },
      redis: { configured: ctx.cache.kind === "redis", ok: redis },
      // Which process answered: a restarted web process shows a new one (issue 20 §2, the fault tests).
      pid: process.pid,
      // Every provider running as its sandbox (no real money): none in live mode (issue 21 §3, ADR 053).
      payments: { mode: ctx.env.PAYMENTS_MODE, testMode: testModeProviders(ctx.env) },
    };
    res
      .status(database ? 200 : 503)
      .setHeader("Cache-Control", "no-store")
      .json(body);
  });

  // Static files: fingerprinted build assets are immutable; translations change with releases.
  if (options.clientDir) {
    app.use("/assets", precompressedAssets(path.join(options.clientDir, "assets"), { maxAge: "31536000" }));
    app.use("/assets", express.static(path.join(options.clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // The client folder's other files (favicon, sandbox pages, add-in icons) are listed once: serve-static would
    // stat the disk for every page path before handing it on (ADR 081).
    const clientFiles = new Set(listFiles(options.clientDir, ["assets"]));
    const rootStatic = express.static(options.clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (clientFiles.has(req.path) ? rootStatic(req, res, next) : next()));
  }
  app.use("/locales", express.static(path.join(options.rootDir, "locales"), { maxAge: "1h", index: false }));
  if (options.devMiddleware) app.use(options.devMiddleware);

  // Cross-site state changes are refused before any handler runs. The portal's own origins: this request's
  // scheme (a trusted proxy's X-Forwarded-Proto) and host, and the configured public address.
  app.use((req, res, next) => {
    const own = [`${req.protocol}://${req.get("host") ?? ""}`, ...(ctx.env.PUBLIC_URL ? [ctx.env.PUBLIC_URL] : [])];
    if (isCrossSiteRequest(req, own)) {
      res.status(403).setHeader("Cache-Control", "no-store");
      if (req.path.startsWith("/api/")) res.json({ error: "cross-site-request-refused" });
      else res.type("text/plain").send("Cross-site request refused");
      return;
    }
    next();
  });

  // During a database outage every page answers 503 with Retry-After until it returns.
  app.use(async (req, res, next) => {
    if (await ctx.health.databaseAvailable()) return next();
    res.status(503).setHeader("Retry-After", String(RETRY_AFTER_SECONDS)).setHeader("Cache-Control", "no-store");
    if (req.path.startsWith("/api/")) res.json({ error: "service-unavailable" });
    else res.type("html").send(renderUnavailablePage(langOfPath(req.path) ?? "en", req.originalUrl));
  });

  // The JSON API: declared endpoint tables, served ahead of Remix (ADR 013).
  app.use(createApiRouter(ctx, API_TABLES));

  // The bench's floor page (ADR 079) is no page of the portal: outside `npm run bench` it does not exist.
  if (!ctx.env.BENCH_BARE_ROUTE) {
    app.use("/__bench", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
  }

  // Paths without a language prefix go to the visitor's language; a prefixed page remembers its language.
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") {
      const search = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?")) : "";
      const target = languageRedirect(req.path, search, cookies.lang.read(req.headers.cookie), req.get("accept-language"));
      if (target) {
        res.setHeader("Vary", "Cookie, Accept-Language");
        res.setHeader("Cache-Control", "no-store");
        return res.redirect(302, target);
      }
      const lang = langOfPath(req.path);
      if (lang && !req.path.endsWith(".data") && cookies.lang.read(req.headers.cookie) !== lang) {
        res.append("Set-Cookie", cookies.lang.serialize(lang, isSecureRequest(req, ctx.env)));
      }
    }
    next();
  });

  // ?logout on any page (spec 1 §4): to the sign-out page, which signs out on its POST (ADR 020).
  app.use((req, res, next) => {
    const target = logoutParamRedirect({
      method: req.method,
      path: req.path,
      query: new URLSearchParams(req.originalUrl.split("?")[1] ?? ""),
      cookieHeader: req.headers.cookie,
    });
    if (!target) return next();
    res.setHeader("Cache-Control", "no-store");
    res.redirect(302, target);
  });

  const remixHandler = createRequestHandler({
    build: options.build as ServerBuild,
    mode: dev ? "development" : "production",
    getLoadContext: (req, res): AppLoadContext =>
      (res.locals.loadContext = {
        ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
        secure: isSecureRequest(req, ctx.env),
        readOnly: req.method === "GET" || req.method === "HEAD",
        app: ctx,
        nonce: res.locals.nonce as string,
        requestId: res.locals.requestId as string,
        logger: res.locals.logger,
      }),
  });
  app.all("*", (req, res, next) => {
    // A loader or action that PostgreSQL refused a value of answers 400, not 500 (ADR 044; handleError marks it).
    downgradeBadInputStatus(res, () => res.locals.loadContext as object | undefined);
    // One that failed for want of the database (down, or no free client in time) answers 503 (ADR 048).
    unavailableStatus(res, () => res.locals.loadContext as object | undefined);
    Promise.resolve(remixHandler(req, res, next)).catch(next);
  });

  // Last resort when Remix itself fails.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const unavailable = ctx.health.reportError(error);
    (res.locals.logger ?? ctx.logger).error({ err: error }, "unhandled error");
    if (res.headersSent) return res.end();
    if (unavailable) {
      res.status(503).setHeader("Retry-After", String(unavailable.retryAfter));
      return res.type("html").send(renderUnavailablePage(langOfPath(req.path) ?? "en", req.originalUrl));
    }
    res
      .status(500)
      .type("html")
      .send(renderPlainErrorPage(langOfPath(req.path) ?? "en", res.locals.requestId, req.originalUrl));
  });

  return app;
}

/** URL paths ("/favicon.svg", "/sandbox/card-fields.html") of the files under `dir`, skipping the `skip` folders. */
function listFiles(dir: string, skip: string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => "/" + path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .filter((p) => !skip.some((s) => p.startsWith(`/${s}/`)));
}
