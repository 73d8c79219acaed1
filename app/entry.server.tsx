import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { TranslatorProvider } from "./lib/translate";
import { detectLang, translatorFor } from "./i18n.server";
import { NonceContext } from "./lib/nonce";
import { renderOutput } from "./lib/trim-chunk-padding.server";
import { badInputLog, badInputSqlState, markBadInput } from "#server/http/bad-input";
import { markUnavailable, unavailableOf, RETRY_AFTER_SECONDS } from "#server/health";
import { renderUnavailablePage } from "#server/http/fallback-pages";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const lang = await detectLang(request);
  const translator = translatorFor(lang);
  // handleError below has already seen the loader's error. A failure caused by a database outage, or a request
  // that waited too long for a database client (ADR 048), is the translated unavailable page (the one the outage
  // check serves) with 503 and Retry-After.
  const unavailable = unavailableOf(loadContext) ?? (loadContext.app.health.databaseDown ? { retryAfter: RETRY_AFTER_SECONDS } : undefined);
  if (responseStatusCode >= 500 && unavailable) {
    const url = new URL(request.url);
    return new Response(renderUnavailablePage(lang, `${url.pathname}${url.search}`), {
      status: 503,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Retry-After": String(unavailable.retryAfter),
      },
    });
  }
  const bot = isbot(request.headers.get("user-agent") ?? "");
  const nonce = loadContext.nonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <TranslatorProvider translator={translator}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </TranslatorProvider>
      </NonceContext.Provider>,
      {
        nonce,
        [bot ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          // Not a bare PassThrough: React 18 pads some chunks with NUL bytes (trim-chunk-padding.server.ts).
          const body = renderOutput();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error }, "render error");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const ctx = context as AppLoadContext;
  // PostgreSQL refusing a value the edge let through: the client's bad input, a 400 (ADR 044), logged to be fixed.
  const sqlState = badInputSqlState(error);
  if (sqlState) {
    markBadInput(ctx);
    ctx.logger.warn(...badInputLog(new URL(request.url).pathname, sqlState));
    return;
  }
  const unavailable = ctx.app.health.reportError(error);
  if (unavailable) markUnavailable(ctx, unavailable);
  // A shed request is load, not a fault: a warning (ADR 048).
  if (unavailable?.reason === "busy") ctx.logger.warn({ err: error }, "no free database client: answered 503");
  else ctx.logger.error({ err: error }, "loader or action error");
};
