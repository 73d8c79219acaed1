// Declared JSON API endpoints (DESIGN §4, ADR 013). Each area exports a table of endpoints: method, path
// pattern, who may call it, the zod schema of its body or query, and a handler that calls the same domain
// function as the page. One generic layer (router.ts) does everything else: path matching, 405 with Allow,
// body size caps, schema errors, the result-to-status mapping and `Cache-Control: no-store`.
import type { Request as ExpressRequest } from "express";
import type * as z from "zod/mini";
import type { Result } from "#common/result";
import type { Scope } from "../../scope";
import type { SchemaError } from "./schema-error";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * - `none`: no session is read (public reference data, sign-in itself).
 * - `optional`: anonymous visitors too (the order form with a draft cookie).
 * - `user`: a signed-in user, else 401 `unauthorized`.
 * - `staff`: a signed-in staff member, else 401 / 403 `forbidden`.
 */
export type Auth = "none" | "optional" | "user" | "staff";

/** What a handler may answer besides a Result: a JSON body with a status, cookies and headers. */
export interface ApiReply {
  readonly kind: "reply";
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
}

export type HandlerAnswer = Result<unknown> | ApiReply | Response;

export interface HandlerInput<B, Q> {
  scope: Scope;
  /** Path parameters, percent-decoded (a malformed escape never reaches a handler: it is a 400). */
  params: Record<string, string>;
  body: B;
  query: Q;
  /** The raw request, for endpoints that stream their body themselves (`body: "stream"`). */
  req: ExpressRequest;
  /** The request as a Web Request (streams the body when the endpoint declares `body: "stream"`). */
  webRequest(): Request;
}

export interface Endpoint<B = unknown, Q = unknown> {
  method: Method;
  /** `/api/order-form/:id/basic-details`; `*` at the end matches the rest of the path (params["*"]). */
  path: string;
  auth: Auth;
  /** A zod schema of the JSON body; `"stream"` leaves the body unread (uploads). Without it the body is ignored. */
  body?: z.ZodMiniType<B> | "stream";
  query?: z.ZodMiniType<Q>;
  /**
   * Rules of path parameters (e.g. `{ id: serialId() }` from #common/integers): a parameter that fails its rule
   * is a 404 before the handler runs, so an id that cannot exist (`abc`, 2^53 + 1) never reaches SQL (ADR 044).
   * The handler still gets the decoded strings.
   */
  params?: Record<string, z.ZodMiniType<unknown>>;
  /**
   * The JSON of the 400 when the body or query fails its schema; by default the SchemaError itself,
   * `{ error, fieldErrors }`. For endpoints whose clients know an older shape (e.g. `{ loggedIn: false, error }`).
   */
  invalidInput?(error: SchemaError): unknown;
  /** Largest accepted body in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** One line for docs/api.md (checked against this table by tests/unit/api-docs.test.ts). */
  summary: string;
  handler(input: HandlerInput<B, Q>): Promise<HandlerAnswer> | HandlerAnswer;
  /**
   * Answers a method this path does not declare, instead of the router's 405 (e.g. a feature behind a flag
   * is a 404 for every method while the flag is off). The scope is built without reading the session.
   */
  wrongMethod?(input: { scope: Scope; req: ExpressRequest }): Promise<HandlerAnswer> | HandlerAnswer;
}

/** Declares an endpoint (keeps the body and query types of its handler). */
export function endpoint<B = undefined, Q = undefined>(e: Endpoint<B, Q>): Endpoint<B, Q> {
  return e;
}

/** A JSON answer with a status other than 200, or with cookies and headers. */
export function reply(body: unknown, options: { status?: number; headers?: Record<string, string>; cookies?: string[] } = {}): ApiReply {
  return { kind: "reply", status: options.status ?? 200, body, headers: options.headers, cookies: options.cookies };
}

/** 303 to `location` (browser navigations through the API, e.g. the re-edit Continue link). */
export function seeOther(location: string, cookies?: string[]): ApiReply {
  return { kind: "reply", status: 303, headers: { Location: location }, cookies };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table holds endpoints of many body types
export type EndpointTable = Endpoint<any, any>[];
