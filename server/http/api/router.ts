// The one generic layer that serves every declared API endpoint (endpoint.ts), mounted in Express ahead
// of Remix so the Remix route tree holds pages only (ADR 013).
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { pickLanguage } from "#common/i18n";
import { errorStatus, fieldErrorCodes, type Result } from "#common/result";
import type { AppContext } from "../../context";
import { buildScope, type Scope } from "../../scope";
import { cookies, isSecureRequest, parseCookies } from "../cookies";
import type * as z from "zod/mini";
import type { ApiReply, Auth, Endpoint, EndpointTable, HandlerAnswer, Method } from "./endpoint";
import { schemaError, type SchemaError } from "./schema-error";
import { findUnstorable } from "../input";
import { isClientAbort } from "../client-abort";
import { jsonProblem } from "./json-guard";
import { badInputLog, badInputSqlState } from "../bad-input";

const DEFAULT_MAX_BODY = 64 * 1024;

interface Compiled {
  endpoint: Endpoint<unknown, unknown>;
  pattern: RegExp;
  names: string[];
}

function compile(endpoint: Endpoint<unknown, unknown>): Compiled {
  const names: string[] = [];
  const source = endpoint.path
    .split("/")
    .map((segment) => {
      if (segment === "*") {
        names.push("*");
        return "(.*)";
      }
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { endpoint, pattern: new RegExp(`^${source}/?$`), names };
}

/** An answer decided before the handler runs (bad JSON, too large, a schema failure): thrown, sent as JSON. */
class HttpError extends Error {
  readonly body: unknown;
  constructor(
    readonly status: number,
    code: string,
    body?: unknown,
  ) {
    super(code);
    this.body = body ?? { error: code };
  }
}

/** The JSON error body: `{ error, fieldErrors? , ...details }` (fieldErrors only when there are some). */
function errorBody(result: Extract<Result<unknown>, { ok: false }>) {
  const fieldErrors = fieldErrorCodes(result.fieldErrors);
  return { ...(result.details ?? {}), error: result.error, ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}) };
}

async function readBody(req: ExpressRequest, maxBytes: number): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, "payload-too-large");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      req.unpipe();
      throw new HttpError(413, "payload-too-large");
    }
    chunks.push(chunk);
  }
  const buffer = Buffer.concat(chunks);
  // Bad UTF-8 is refused rather than silently replaced.
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    throw new HttpError(400, "invalid-json");
  }
}

function parseJsonObject(endpoint: Endpoint<unknown, unknown>, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "invalid-json");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new HttpError(400, "invalid-json");
  // Too deep, or a number JavaScript cannot hold exactly (1e309, 2^53 + 1): refused before anything reads it (ADR 044).
  const problem = jsonProblem(value);
  if (problem?.kind === "too-deep") throw new HttpError(400, "invalid-json");
  if (problem) {
    const error: SchemaError = { error: problem.kind, fieldErrors: { [problem.field]: problem.kind } };
    throw new HttpError(400, error.error, endpoint.invalidInput ? endpoint.invalidInput(error) : error);
  }
  return value as Record<string, unknown>;
}

/**
 * A NUL or a lone surrogate anywhere in the body or query (which PostgreSQL refuses, ADR 018) is a 400
 * `invalid-characters` naming the field, in the endpoint's shape, before the schema or the handler runs.
 */
function refuseUnstorable(endpoint: Endpoint<unknown, unknown>, value: unknown) {
  const field = findUnstorable(value);
  if (!field) return;
  const error: SchemaError = { error: "invalid-characters", fieldErrors: { [field]: "invalid-characters" } };
  throw new HttpError(400, error.error, endpoint.invalidInput ? endpoint.invalidInput(error) : error);
}

/** The body or query as its schema reads it; a failure is a 400 in the endpoint's shape (`invalidInput`). */
function parseInput<T>(endpoint: Endpoint<unknown, unknown>, schema: z.ZodMiniType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const error = schemaError(parsed.error.issues);
  throw new HttpError(400, error.error, endpoint.invalidInput ? endpoint.invalidInput(error) : error);
}

/** The raw (still percent-encoded) path and the query string of a request URL. */
function splitUrl(url: string): [path: string, search: string] {
  const q = url.indexOf("?");
  return q < 0 ? [url, ""] : [url.slice(0, q), url.slice(q + 1)];
}

function decodeParams(names: string[], match: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    try {
      params[name] = decodeURIComponent(match[i + 1] ?? "");
    } catch {
      throw new HttpError(400, "invalid-path");
    }
    if (findUnstorable(params[name])) throw new HttpError(400, "invalid-path");
  });
  return params;
}

/** A declared path parameter (e.g. a serial id) that does not fit its rule names nothing: 404 (ADR 044). */
function checkParams(endpoint: Endpoint<unknown, unknown>, params: Record<string, string>) {
  for (const [name, rule] of Object.entries(endpoint.params ?? {}))
    if (!rule.safeParse(params[name]).success) throw new HttpError(404, "not-found");
}

function sendJson(res: ExpressResponse, status: number, body: unknown) {
  res.status(status).setHeader("Cache-Control", "no-store");
  if (body === undefined) res.end();
  else res.json(body);
}

async function sendWebResponse(res: ExpressResponse, response: Response) {
  res.status(response.status);
  response.headers.forEach((value, key) => {
    if (key.toLowerCase() !== "set-cookie") res.setHeader(key, value);
  });
  for (const cookie of response.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  if (!response.headers.has("cache-control")) res.setHeader("Cache-Control", "no-store");
  if (!response.body) return void res.end();
  // pipeline, not pipe: a client that goes away destroys the body stream too (a streamed zip stops reading its
  // files and closes them, ADR 033). Its premature close is the client's doing, not an error of the endpoint.
  try {
    await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), res);
  } catch (error) {
    if (res.headersSent) return void res.destroy();
    throw error;
  }
}

function isResult(answer: HandlerAnswer): answer is Result<unknown> {
  return typeof (answer as { ok?: unknown }).ok === "boolean" && !(answer instanceof Response);
}

async function send(res: ExpressResponse, answer: HandlerAnswer) {
  if (answer instanceof Response) return sendWebResponse(res, answer);
  if (isResult(answer)) {
    if (answer.ok) return sendJson(res, 200, answer.value ?? {});
    // A refusal that says when to come back (429, 503) says it in the header too.
    const retry = answer.details?.retryAfterSeconds;
    if (typeof retry === "number" && retry > 0) res.setHeader("Retry-After", String(Math.ceil(retry)));
    return sendJson(res, errorStatus(answer.error), errorBody(answer));
  }
  const r = answer as ApiReply;
  for (const [k, v] of Object.entries(r.headers ?? {})) res.setHeader(k, v);
  for (const c of r.cookies ?? []) res.append("Set-Cookie", c);
  sendJson(res, r.status, r.body);
}

/** `scheme://host` of the request, for the Web Request's URL only: e-mailed links never use it (server/mail/links.ts). */
function originOf(req: ExpressRequest): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}

/** GET and HEAD carry no body (and their answers may be memoised within the request). */
const isRead = (req: ExpressRequest) => req.method === "GET" || req.method === "HEAD";

function webRequestOf(req: ExpressRequest, body: string | "stream" | null): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else if (v !== undefined) headers.set(k, v);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (!isRead(req)) {
    if (body === "stream") {
      init.body = Readable.toWeb(req) as unknown as ReadableStream;
      init.duplex = "half";
    } else if (body) init.body = body;
  }
  return new Request(`${originOf(req)}${req.originalUrl}`, init);
}

async function scopeFor(ctx: AppContext, req: ExpressRequest, auth: Auth): Promise<Scope> {
  const cookieHeader = req.headers.cookie;
  return buildScope(ctx, {
    cookieHeader,
    host: req.get("host"),
    // API paths carry no language prefix: the language cookie, then Accept-Language.
    lang: pickLanguage(parseCookies(cookieHeader)[cookies.lang.name], req.get("accept-language")),
    ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
    secure: isSecureRequest(req, ctx.env),
    userAgent: req.get("user-agent"),
    memoize: isRead(req),
    ...(auth === "none" ? { session: Promise.resolve(null) } : {}),
  });
}

/** 401 without a session where the endpoint needs one, 403 for anyone but staff on a staff endpoint. */
function checkAuth(auth: Auth, scope: Scope) {
  if ((auth === "user" || auth === "staff") && !scope.session) throw new HttpError(401, "unauthorized");
  if (auth === "staff" && !scope.session?.user.isStaff) throw new HttpError(403, "forbidden");
}

/** The body and query as the endpoint's schemas read them (a streamed body is left for the handler). */
async function readInput(endpoint: Endpoint<unknown, unknown>, req: ExpressRequest, search: string) {
  let bodyText: string | "stream" | null = null;
  let body: unknown = undefined;
  if (endpoint.body === "stream") bodyText = "stream";
  else if (endpoint.body) {
    bodyText = await readBody(req, endpoint.maxBodyBytes ?? DEFAULT_MAX_BODY);
    const json = parseJsonObject(endpoint, bodyText);
    refuseUnstorable(endpoint, json);
    body = parseInput(endpoint, endpoint.body, json);
  }
  const rawQuery = Object.fromEntries(new URLSearchParams(search));
  refuseUnstorable(endpoint, rawQuery);
  const query = endpoint.query ? parseInput(endpoint, endpoint.query, rawQuery) : undefined;
  return { bodyText, body, query };
}

/** Express middleware serving the tables under /api (any other /api path is a JSON 404); every other path goes on to Remix. */
export function createApiRouter(ctx: AppContext, tables: EndpointTable[]) {
  const compiled = tables.flat().map((e) => compile(e as Endpoint<unknown, unknown>));

  return async function apiRouter(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    if (!req.path.startsWith("/api/") && req.path !== "/api") return next();
    let route = `${req.method} ${req.path}`;
    try {
      const [rawPath, search] = splitUrl(req.originalUrl);
      const method = (req.method === "HEAD" ? "GET" : req.method.toUpperCase()) as Method;
      const candidates = compiled.map((c) => ({ c, match: c.pattern.exec(rawPath) })).filter((x) => x.match);
      if (!candidates.length) return sendJson(res, 404, { error: "not-found" });
      const hit = candidates.find((x) => x.c.endpoint.method === method);
      if (!hit) {
        const custom = candidates.find((x) => x.c.endpoint.wrongMethod)?.c.endpoint;
        if (custom?.wrongMethod) return await send(res, await custom.wrongMethod({ scope: await scopeFor(ctx, req, "none"), req }));
        const allow: string[] = [...new Set(candidates.map((x) => x.c.endpoint.method))];
        if (allow.includes("GET")) allow.push("HEAD");
        res.setHeader("Allow", allow.join(", "));
        return sendJson(res, 405, { error: "method-not-allowed" });
      }
      const { endpoint } = hit.c;
      route = `${endpoint.method} ${endpoint.path}`;
      const params = decodeParams(hit.c.names, hit.match!);

      // Who asks is checked before the body is read: a visitor gets 401, not the schema's complaints.
      const scope = await scopeFor(ctx, req, endpoint.auth);
      checkAuth(endpoint.auth, scope);
      checkParams(endpoint, params);
      const { bodyText, body, query } = await readInput(endpoint, req, search);

      const answer = await endpoint.handler({
        scope,
        params,
        body,
        query,
        req,
        webRequest: () => webRequestOf(req, bodyText),
      });
      await send(res, answer);
    } catch (error) {
      if (error instanceof HttpError) return sendJson(res, error.status, error.body);
      if (isClientAbort(error, req)) return void res.destroy();
      // Helpers shared with pages may throw a ready Response (e.g. a 401 from a guard).
      if (error instanceof Response) return send(res, error);
      // The database down, or no free client in time (a busy pool, ADR 048: logged as load, not a fault).
      const unavailable = ctx.health.reportError(error);
      if (unavailable) {
        if (unavailable.reason === "busy") (res.locals.logger ?? ctx.logger).warn({ route }, "no free database client: answered 503");
        res.setHeader("Retry-After", String(unavailable.retryAfter));
        return sendJson(res, 503, { error: "service-unavailable" });
      }
      // The last line (ADR 044): PostgreSQL refusing a value the edge let through is a 400, logged to be fixed.
      const sqlState = badInputSqlState(error);
      if (sqlState && !res.headersSent) {
        (res.locals.logger ?? ctx.logger).warn(...badInputLog(route, sqlState));
        return sendJson(res, 400, { error: "invalid-input" });
      }
      next(error);
    }
  };
}
