// npm run worker: runs background jobs (document analysis, …) as its own process, next to web
// processes started with WORKERS=external. Needs PostgreSQL (DATABASE_URL): an embedded PGlite
// database belongs to the one web process, which then runs the jobs itself (WORKERS=inline).
import { readEnv } from "#server/env";
import { openDatabase, migrateToLatest } from "#server/db";
import { createCache } from "#server/cache";
import { redisOptions } from "#server/cache/options";
import { createLogger } from "#server/logger";
import { loadSecrets } from "#server/secrets";
import { createAppContext } from "#server/context";
import { startJobWorker } from "#server/jobs";
import { portalJobHandlers } from "#server/job-handlers";
import { stopEngine, warmEngine } from "#server/grammar-check/engine";

async function main() {
  const env = readEnv();
  const logger = createLogger(env.LOG_LEVEL);
  if (!env.DATABASE_URL) {
    process.stderr.write(
      "\nnpm run worker needs DATABASE_URL (PostgreSQL). With the embedded database the web process runs the jobs itself (WORKERS=inline, the default of npm start).\n\n",
    );
    process.exit(2);
  }
  const database = await openDatabase(env);
  await migrateToLatest(database.db);
  const cache = await createCache(env.REDIS_URL, env.REDIS_PREFIX, redisOptions(env, logger));
  const ctx = createAppContext({ env, db: database.db, dbKind: database.kind, cache, logger, secrets: loadSecrets(env.DATA_DIR, env) });
  const worker = startJobWorker(ctx, portalJobHandlers());
  process.stdout.write(`Job worker ${worker.id} is running (database ${database.location}). Stop with Ctrl+C.\n`);
  // The grammar engine's child process, warmed now so the first grammar check does not pay harper's start-up
  // (several seconds; ADR 069). A failure here is logged: the first job starts the child again.
  warmEngine().then(
    () => logger.info("grammar engine warmed"),
    (error) => logger.warn({ err: error }, "grammar engine did not warm"),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "worker shutting down");
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    worker
      .stop()
      .then(() => stopEngine())
      .then(() => cache.close())
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, "worker shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error) => {
  // A bad variable says what to fix, without a stack trace.
  const detail = (error as { code?: string }).code === "INVALID_ENV" ? (error as Error).message : ((error as Error).stack ?? error);
  process.stderr.write(`\nThe job worker could not start: ${detail}\n\n`);
  process.exit(1);
});
