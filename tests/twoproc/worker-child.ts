// The worker machine of the two-machine test (ADR 078): the portal's job runner on the shared PostgreSQL and S3
// store, as `npm run worker` runs it, without warming the grammar engine (about 540 MB; no grammar job here).
import { readEnv } from "../../server/env";
import { openDatabase } from "../../server/db";
import { createCache } from "../../server/cache";
import { createLogger } from "../../server/logger";
import { loadSecrets } from "../../server/secrets";
import { createAppContext } from "../../server/context";
import { startJobWorker } from "../../server/jobs";
import { portalJobHandlers } from "../../server/job-handlers";

const env = readEnv();
const logger = createLogger(env.LOG_LEVEL);
const database = await openDatabase(env);
const cache = await createCache(env.REDIS_URL, env.REDIS_PREFIX);
const ctx = createAppContext({ env, db: database.db, dbKind: database.kind, cache, logger, secrets: loadSecrets(env.DATA_DIR, env) });
const worker = startJobWorker(ctx, portalJobHandlers());
process.stdout.write(`WORKING ${worker.id}\n`);
const stop = () =>
  worker
    .stop()
    .then(() => cache.close())
    .then(() => database.close())
    .then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
