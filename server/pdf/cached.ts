// A PDF rendered once and kept (ADR 026, 028): the shared cache first, then a render in flight in this process,
// else one render in the pool whose result is cached. Quotes and certificates use it with their own keys (a key
// names the document, its layout version and its content).
import { fail, ok, type Result } from "#common/result";
import type { AppContext } from "../context";
import { PDF_BUSY_RETRY_SECONDS, PdfPoolBusyError, PdfRenderError } from "./pool";

/** Renders in flight in this process, by cache key: concurrent downloads of one document render it once. */
const rendering = new Map<string, Promise<Buffer>>();

/**
 * The PDF under `key`, rendering it with `render` when neither the cache nor a render in flight has it.
 * Error: `service-unavailable` (details.retryAfterSeconds, and `message` when given) when the pool is full, a
 * render timed out or its worker died: passing troubles of this server, 503, never a 500.
 */
export async function cachedPdf(
  app: Pick<AppContext, "cache">,
  key: string,
  ttlSeconds: number,
  render: () => Promise<Buffer>,
  busyMessage?: string,
): Promise<Result<Buffer>> {
  const cached = await app.cache.getJson<string>(key).catch(() => undefined);
  if (typeof cached === "string") return ok(Buffer.from(cached, "base64"));
  let pending = rendering.get(key);
  if (!pending) {
    // The in-flight entry outlives the render and the cache write by a few seconds: a download whose cache read
    // was already under way (a Redis round trip) when the PDF was stored finds it here instead of rendering again.
    pending = render()
      .then(async (pdf) => {
        // A cache that cannot keep it (full, down) costs the next download a render, nothing more.
        await app.cache.setJson(key, pdf.toString("base64"), ttlSeconds).catch(() => undefined);
        setTimeout(() => rendering.delete(key), 5_000).unref();
        return pdf;
      })
      .catch((error: unknown) => {
        // A failed render is not kept: the next download tries again.
        rendering.delete(key);
        throw error;
      });
    rendering.set(key, pending);
  }
  try {
    return ok(await pending);
  } catch (error) {
    if (error instanceof PdfPoolBusyError || error instanceof PdfRenderError)
      return fail("service-unavailable", {
        retryAfterSeconds: error instanceof PdfPoolBusyError ? error.retryAfterSeconds : PDF_BUSY_RETRY_SECONDS,
        ...(busyMessage ? { message: busyMessage } : {}),
      });
    throw error;
  }
}
