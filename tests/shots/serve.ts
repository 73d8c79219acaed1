// The portal of the billing screenshots (npm run shots:billing): like the browser suite's (tests/e2e/serve.ts) —
// a fresh embedded database, the built app, demo data, the providers' sandboxes — plus what the screenshots show.
import fs from "node:fs";
import path from "node:path";
import { startPortal } from "../../server/boot";
import { readEnv } from "../../server/env";
import { RELAXED_RATE_LIMITS } from "../helpers/portal";
import { seedShots } from "./seed";

async function main() {
  const dataDir = path.resolve(".tmp/shots-data");
  fs.rmSync(dataDir, { recursive: true, force: true });
  const env = readEnv({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    REDIS_PREFIX: `shots:${process.pid}:`,
    LOG_LEVEL: "warn",
    MAIL_PICKUP_DIR: path.join(dataDir, "mail"),
    PAYMENTS_MODE: "sandbox",
    TRANSLATION_MODE: "sandbox",
    CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
  });
  // The spec waits for this file: the portal answers /healthz before the seeding below is done.
  const factsFile = path.resolve(".tmp/shots-facts.json");
  fs.rmSync(factsFile, { force: true });
  const portal = await startPortal({ env });
  await seedShots(portal.ctx, factsFile);
  process.stdout.write(`shots portal at ${portal.url}\n`);
  const stop = () => portal.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
