// The one input recipe of page actions (ADR 013): read the posted form once, parse it with the area's
// shared zod schema (app/common/<area>/schemas.ts) through conform's coercion (empty → undefined, "on" →
// true, numbers), call one domain function with the parsed value, and answer 400 with the page
// re-rendered when the schema or the domain refuses. The JSON API parses the same schemas (server/http/api).
// conform runs here on the server only: wizard pages keep their light client (no conform in the browser).
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod/mini";
import type { Submission, SubmissionResult } from "@conform-to/react";
import { conformErrors, type Err } from "#common/result";
import { findUnstorableField } from "#server/http/input";

// conform's parseWithZod accepts zod/mini schemas at run time; its types want the classic ZodType.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = any;

/** A 400 for a form no page can use: the route's error boundary shows it translated. */
const badForm = (why: string) => new Response(`Bad Request: ${why}`, { status: 400, headers: { "Cache-Control": "no-store" } });

/**
 * Refuses a form with a NUL or a lone surrogate in a field name or value (PostgreSQL cannot store them;
 * ADR 018): a 400 before any schema or domain function sees it. Every reader of posted fields goes through it.
 */
export function refuseUnstorableFields(fields: FormData | URLSearchParams | Record<string, string>): void {
  if (findUnstorableField(fields) !== null) throw badForm("a field contains characters that cannot be saved");
}

/** Forms read here carry text fields only (uploads are streamed by readStepForm): this is far more than any needs. */
const MAX_FORM_BYTES = 1024 * 1024;

/**
 * The body, read whole before it is parsed. A parser that fails half-way on the live stream cancels it, and
 * cancelling a page request's body destroys the client's socket (the Remix adapter ends it with
 * `req.destroy()`): a malformed multipart form got no answer at all instead of a 400 (issue 9 §3.1).
 * Past MAX_FORM_BYTES: a 413, the rest left unread (released, not cancelled) for the server to discard.
 */
async function readBody(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_FORM_BYTES) throw new Response("Payload Too Large", { status: 413, headers: { "Cache-Control": "no-store" } });
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const body = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return body;
}

/** No page's form has more than a few dozen fields; 10,000 small ones are an attack, refused like a large body (issue 14 item 7). */
const MAX_FORM_FIELDS = 1000;

/** The posted form; a body that is not a form (wrong content type, truncated multipart) is a 400, never a 500. */
export async function readFormData(request: Request): Promise<FormData> {
  const body = await readBody(request);
  let data: FormData;
  try {
    data = await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw badForm("the request body is not a form");
  }
  let fields = 0;
  for (const _ of data.keys()) {
    if (++fields > MAX_FORM_FIELDS) throw new Response("Payload Too Large", { status: 413, headers: { "Cache-Control": "no-store" } });
  }
  refuseUnstorableFields(data);
  return data;
}

/** Parses posted fields (a FormData, or the text fields of a streamed multipart form) with a shared schema. */
export function parseFields<Output>(fields: FormData | URLSearchParams | Record<string, string>, schema: AnySchema): Submission<Output> {
  refuseUnstorableFields(fields);
  const data = fields instanceof FormData || fields instanceof URLSearchParams ? fields : new URLSearchParams(Object.entries(fields));
  return parseWithZod(data, { schema }) as Submission<Output>;
}

/** Reads and parses the posted form in one step. */
export async function parseForm<Output>(request: Request, schema: AnySchema): Promise<Submission<Output>> {
  return parseFields<Output>(await readFormData(request), schema);
}

/** One form of a page with several: its schema (one per intent, recipe step 1) and what to do with the parsed value. */
export interface IntentHandler {
  schema: AnySchema;
  run: (value: never) => Response | Promise<Response>;
}

/** An intent's handler, its value typed by the schema's output (inferred, not stated). */
export function onIntent<S extends z.ZodMiniType>(schema: S, run: (value: z.output<S>) => Response | Promise<Response>): IntentHandler {
  return { schema, run: run as IntentHandler["run"] };
}

/**
 * The action of a page with several forms, told apart by their `intent` field: the handler of the posted intent
 * runs with its parsed value. A missing or unknown intent, and a form its schema refuses, get the page's
 * `refuse(intent)`: a 400 that says in the user's language that the form could not be read, never a fall-through
 * to another form's handler (the five-way if-chains of the staff pages, issue 21 §6).
 */
export async function dispatchIntent(
  fields: FormData,
  handlers: Record<string, IntentHandler>,
  refuse: (intent: string) => Response | Promise<Response>,
): Promise<Response> {
  const intent = String(fields.get("intent") ?? "");
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  if (!handler) return refuse(intent);
  const submission = parseFields<unknown>(fields, handler.schema);
  if (submission.status !== "success") return refuse(intent);
  return (handler.run as (value: unknown) => Response | Promise<Response>)(submission.value);
}

/** The reply conform renders, with a domain function's field errors added (the page then answers 400). */
export function replyWithErrors(
  submission: Submission<unknown>,
  error: Err,
  options: { hideFields?: string[] } = {},
): SubmissionResult<string[]> {
  const fieldErrors = conformErrors(error.fieldErrors);
  return submission.reply({
    fieldErrors,
    // An error that belongs to no field is shown above the form, as its translation key.
    formErrors: Object.keys(fieldErrors).length ? undefined : [error.error],
    hideFields: options.hideFields,
  });
}
