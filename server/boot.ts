// Starting and stopping the portal: open the store, migrate, seed, serve.
// Used by scripts/start.ts, the benchmark and the tests.
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import type express from "express";
import { readEnv, type Env } from "./env";
import { openDatabase, migrateToLatest, lockHeldByParent, type OpenedDatabase } from "./db";
import { createCache } from "./cache";
import { redisOptions } from "./cache/options";
import { createLogger } from "./logger";
import { loadSecrets } from "./secrets";
import { createAppContext, type AppContext } from "./context";
import { createHttpApp } from "./app";
import { seedReference, seedDemoAccounts, type SeededAccount } from "../db/seed";
import { startJobWorker, workersMode } from "./jobs";
import { stopEngine } from "./grammar-check/engine";
import { portalJobHandlers } from "./job-handlers";
import { scheduleFileExpiry } from "./documents/jobs";
import { sweepTempUploads } from "./documents/partial-uploads";
import { schedulePaymentHousekeeping } from "./payments/jobs";
import { scheduleBalanceExpiry } from "./billing/ledger/jobs";

export interface RunningPortal {
  ctx: AppContext;
  server: http.Server;
  url: string;
  demoAccounts: SeededAccount[];
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Env;
  rootDir?: string;
  /** Remix server build; defaults to build/server/index.js under rootDir. */
  build?: ServerBuild | (() => Promise<ServerBuild>);
  devMiddleware?: express.RequestHandler;
  /** Use an already opened database (tests). */
  database?: OpenedDatabase;
  /** The store is already migrated and seeded (a cluster's primary did it once with preparePortal). */
  prepared?: boolean;
  /** The pid of the primary holding DATA_DIR's lock for this worker (embedded PGlite): it is not taken again. */
  lockHeldBy?: number;
}

/**
 * Migrates and seeds the store, then closes it; returns the demo accounts. A cluster's primary
 * (scripts/start.ts with WEB_CONCURRENCY) does this once, so its workers do not race at it.
 */
export async function preparePortal(env: Env, options: { lockHeld?: boolean } = {}): Promise<SeededAccount[]> {
  const logger = createLogger(env.LOG_LEVEL);
  loadSecrets(env.DATA_DIR, env);
  const database = await openDatabase(env, { lock: !options.lockHeld });
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length) logger.info({ migrations: applied }, "migrations applied");
    await seedReference(database.db);
    return env.SEED_DEMO ? await seedDemoAccounts(database.db) : [];
  } finally {
    await database.close();
  }
}

export async function startPortal(options: StartOptions = {}): Promise<RunningPortal> {
  const env = options.env ?? readEnv();
  const rootDir = options.rootDir ?? process.cwd();
  const logger = createLogger(env.LOG_LEVEL);
  const secrets = loadSecrets(env.DATA_DIR, env);
  const database = options.database ?? (await openDatabase(env, { lock: !lockHeldByParent(env.DATA_DIR, options.lockHeldBy) }));
  let cache;
  try {
    if (!options.prepared) {
      const applied = await migrateToLatest(database.db);
      if (applied.length) logger.info({ migrations: applied }, "migrations applied");
      await seedReference(database.db);
    }
    cache = await createCache(env.REDIS_URL, env.REDIS_PREFIX, redisOptions(env, logger));
  } catch (error) {
    await database.close();
    throw error;
  }
  const demoAccounts = env.SEED_DEMO && !options.prepared ? await seedDemoAccounts(database.db) : [];
  const ctx = createAppContext({ env, db: database.db, dbKind: database.kind, cache, logger, secrets });
  // The config may have been changed by another process or by the seed: start from the database.
  await ctx.config.invalidate();
  // The hourly expiry of abandoned anonymous drafts' files (issue 10 §6): started once, it reschedules itself.
  await scheduleFileExpiry(ctx);
  await schedulePaymentHousekeeping(ctx);
  await scheduleBalanceExpiry(ctx);
  // Partial uploads of a web process that was killed (ADR 046): never recorded, removed here and hourly.
  sweepTempUploads(ctx).then(
    (removed) => removed && logger.warn({ removed }, "removed partial uploads of a stopped process"),
    (error) => logger.warn({ err: error }, "could not sweep partial uploads"),
  );
  // Background jobs (document analysis, …) run in this process unless WORKERS=external.
  const worker = workersMode(env) === "inline" ? startJobWorker(ctx, portalJobHandlers()) : null;

  const build =
    options.build ?? (async () => (await import(/* @vite-ignore */ path.join(rootDir, "build/server/index.js"))) as ServerBuild);
  const resolvedBuild = typeof build === "function" && !options.devMiddleware ? await build() : build;
  const app = createHttpApp(ctx, {
    build: resolvedBuild,
    clientDir: options.devMiddleware ? undefined : path.join(rootDir, "build/client"),
    devMiddleware: options.devMiddleware,
    rootDir,
  });
  // Slow clients (issue 9 §5): headers and the whole request each have a deadline, checked often enough
  // that a short configured timeout is honoured (Node checks every 30 s by default).
  const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, Math.ceil(env.HTTP_HEADERS_TIMEOUT_MS / 2)) }, app);
  server.headersTimeout = env.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS);
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? (env.TRUST_PROXY ? 65_000 : 5_000);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running after 3 s are cut so shutdown stays within a few seconds.
        setTimeout(() => server.closeAllConnections(), 3000).unref();
      });
      await worker?.stop();
      // The grammar engine's child process, if a job started it (ADR 069): not warmed here, so web processes
      // and tests that never check grammar never pay its ~500 MB.
      stopEngine();
      await ctx.pdf.close();
      ctx.storage.close();
      await cache.close();
      await database.close();
    })();
    return stopping;
  };
  return { ctx, server, url, demoAccounts, stop };
}
