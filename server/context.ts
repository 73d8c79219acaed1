// Everything a request handler needs, created once per process and handed to
// Remix loaders and actions as `context.app` (so server modules hold no hidden
// global state and tests can build their own).
import type { Env } from "./env";
import type { DB } from "./db";
import type { Cache } from "./cache";
import type { Logger } from "./logger";
import type { Secrets } from "./secrets";
import { ConfigService } from "./config";
import { HealthState } from "./health";
import { createPdfPool, type PdfPool } from "./pdf/pool";
import { registerEventHandlers } from "./event-handlers";
import { createFileStore, type FileStore } from "./storage";

export interface AppContext {
  env: Env;
  db: DB;
  dbKind: "postgres" | "pglite";
  cache: Cache;
  config: ConfigService;
  logger: Logger;
  secrets: Secrets;
  health: HealthState;
  /** PDF rendering off the event loop (ADR 028); its workers start with the first render. */
  pdf: PdfPool;
  /** Where stored files live (ADR 078): DATA_DIR on this disk, or the shared S3-compatible store (STORAGE). */
  storage: FileStore;
}

export function createAppContext(parts: {
  env: Env;
  db: DB;
  dbKind: "postgres" | "pglite";
  cache: Cache;
  logger: Logger;
  secrets: Secrets;
  /** A store of the caller's (tests); by default the one STORAGE names. */
  storage?: FileStore;
}): AppContext {
  // Orders and prepay react to billing's and payments' events (ADR 056): their handlers before any work.
  registerEventHandlers();
  return {
    ...parts,
    config: new ConfigService(parts.db, parts.cache, parts.env.CONFIG_OVERRIDES),
    health: new HealthState(parts.db),
    pdf: createPdfPool({ workers: parts.env.PDF_WORKERS }),
    storage: parts.storage ?? createFileStore(parts.env),
  };
}

/** What every loader and action receives as `context`. */
export interface RequestContext {
  app: AppContext;
  nonce: string;
  requestId: string;
  logger: Logger;
  /** Client address (X-Forwarded-For is believed only from the proxies TRUST_PROXY names). */
  ip: string;
  /** True when the request came over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
  /**
   * GET or HEAD: no action runs, so what one loader read (the session) is still true for the others. Remix gives
   * each loader its own Request object, so a per-request memo is keyed by this context (ADR 081).
   */
  readOnly?: boolean;
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging needs an interface
  interface AppLoadContext extends RequestContext {}
  // Single fetch types: loader data is what the loader returns (turbo-stream), not JSON.
  interface Future {
    v3_singleFetch: true;
  }
}
