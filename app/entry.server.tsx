import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { TranslatorProvider } from "./lib/translate";
import { detectLang, translatorFor } from "./i18n.server";
import { NonceContext } from "./lib/nonce";
import { badInputLog, badInputSqlState, markBadInput } from "#server/http/bad-input";

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
  // handleError below has already seen the loader's error; a failure caused by a database outage becomes a 503.
  if (responseStatusCode >= 500 && loadContext.app.health.databaseDown) {
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", "30");
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
          const body = new PassThrough();
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
  ctx.app.health.reportError(error);
  ctx.logger.error({ err: error }, "loader or action error");
};
