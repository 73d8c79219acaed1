// The one streaming reader of multipart/form-data bodies (uploads, staff deliveries, the certificate file check).
// The body goes chunk by chunk through a byte counter into busboy; file parts reach the caller as streams and are
// never held in memory; a body over its size, a malformed part or a NUL in a part's header ends the read with a
// MultipartError, and the caller undoes what it kept.
//
// Whatever a file part's consumer does with its stream runs as a promise the consumer returns from onFile; this
// reader owns those promises: it handles their rejection the moment they are made and settles all of them before
// it returns or throws. A part that never closes, a client that disconnects or a body cut short errors the part's
// stream, and an unowned consumer promise rejecting with "Unexpected end of form" used to be an unhandled
// rejection that took the whole process down (issue 20 §1).
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { MultipartError, type FilePart, type MultipartBody, type MultipartErrorCode, type MultipartOptions } from "../kernel/multipart";

// The types and the error are on the kernel floor, where the domain code that reads parts can name them (ADR 059).
export { MultipartError, type FilePart, type MultipartBody, type MultipartErrorCode, type MultipartOptions };

/** A request's multipart body for domain code: its parts, never the Request (ADR 057, 059). Adapters make it. */
export function multipartBody(request: Request): MultipartBody {
  return { isMultipart: isMultipart(request), read: (options) => readMultipart(request, options) };
}

/**
 * The chunks of a request body, for a pipeline that may fail half-way: on failure the reader is released, not
 * cancelled. Cancelling the body of a page request destroys the client's socket (the Remix adapter's stream
 * ends in `req.destroy()`), so the visitor would get no answer at all instead of a 400 (issue 9 §3.1).
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    try {
      reader.releaseLock();
    } catch {
      /* a read still pending: the body is left to the server, which discards it */
    }
  }
}

/** True when the request says it carries a multipart form and has a body. */
export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "") && request.body !== null;
}

/**
 * Reads the whole multipart body; resolves when it has been read and every file consumer has settled. Rejects with
 * MultipartError when the body is refused or malformed (after the consumers settled: their streams are ended with
 * an error, so nothing is left running), or with a consumer's own error when the body was fine but a consumer failed.
 */
export async function readMultipart(request: Request, options: MultipartOptions): Promise<void> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!isMultipart(request)) throw new MultipartError("invalid-request");
  if (Number(request.headers.get("content-length") ?? 0) > options.maxBody) throw new MultipartError("payload-too-large");
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8", limits: options.limits });
  } catch {
    throw new MultipartError("invalid-request");
  }
  const consumers: Promise<void>[] = [];
  const open = new Set<Readable>();
  let consumerError: { error: unknown } | null = null;
  if (options.onField) parser.on("field", options.onField);
  if (options.onFilesLimit) parser.on("filesLimit", options.onFilesLimit);
  parser.on("file", (field, stream, info) => {
    // A malformed body errors the part's stream too; the pipeline below reports it for the request.
    stream.on("error", () => undefined);
    if (!info.filename) return void stream.resume();
    open.add(stream);
    stream.once("close", () => open.delete(stream));
    let work: Promise<unknown> | void;
    try {
      work = options.onFile({ field, filename: info.filename, stream });
    } catch (error) {
      work = Promise.reject(error);
    }
    // The handler is attached now, not when the body ends: a rejection in between must never go unhandled.
    consumers.push(
      Promise.resolve(work).then(
        () => undefined,
        (error: unknown) => {
          consumerError ??= { error };
          stream.resume();
        },
      ),
    );
  });
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > options.maxBody) callback(new MultipartError("payload-too-large"));
      else callback(null, chunk);
    },
  });
  let failure: MultipartError | null = null;
  try {
    await pipeline(bodyChunks(request.body!), counter, parser);
  } catch (error) {
    failure = error instanceof MultipartError ? error : new MultipartError("invalid-request");
    // A consumer still reading a part of a broken body would wait for bytes that never come: end it with the error.
    for (const stream of open) stream.destroy(failure);
  }
  await Promise.all(consumers);
  if (failure) throw failure;
  if (consumerError) throw (consumerError as { error: unknown }).error;
}
