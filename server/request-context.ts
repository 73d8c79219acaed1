// The request a piece of work belongs to, carried through every await of that request (AsyncLocalStorage), so
// that what goes wrong outside any handler — an unhandled rejection, an uncaught exception — is still logged with
// the request id that caused it (issue 20 §2). Set once per request by the HTTP layer's request-id middleware.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestContext {
  requestId: string;
  method: string;
  url: string;
}

// One store per process, shared by every copy of this module: the Remix server build bundles its own copy of the
// server modules, while the HTTP layer that calls runInRequest is loaded from source; a module-level store would
// leave the build's loaders outside every request (currentRequest() undefined there).
const KEY = Symbol.for("researcher-portal.request-context");
const shared = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestContext> | undefined>;
const storage = (shared[KEY] ??= new AsyncLocalStorage<RequestContext>());

/** Runs `fn` (and everything it starts) as part of the request `context`. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The request the current code runs for, if any. */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
