// Runs scripts/order-via-curl.sh against a freshly started portal (embedded PGlite, or a fresh
// PostgreSQL database when DATABASE_URL is set) and checks it prints an external order id.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { startPortal } from "../../server/boot";
import { readEnv } from "../../server/env";
import { freshDatabase } from "../helpers/template";

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-curl-"));
  const databaseUrl = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, "curl") : undefined;
  const portal = await startPortal({
    env: readEnv({
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PORT: "0",
      LOG_LEVEL: "warn",
      REDIS_PREFIX: `curl:${process.pid}:`,
    }),
  });
  let ok = false;
  try {
    // Asynchronous: the portal answers from this very process while the script runs.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn("bash", ["scripts/order-via-curl.sh"], {
        env: { ...process.env, BASE_URL: portal.url, EMAIL: "curl.researcher@example.org", PASSWORD: "curl-password-1" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const timer = setTimeout(() => child.kill(), 120_000);
      child.on("close", (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });
    const last = run.stdout.trim().split("\n").pop() ?? "";
    ok = run.status === 0 && /^RS\d+$/.test(last);
    process.stdout.write(run.stderr);
    console.log(ok ? `order-via-curl.sh placed order ${last}` : `order-via-curl.sh failed (exit ${run.status}): ${run.stdout}`);
    if (ok) {
      const order = await portal.ctx.db
        .selectFrom("orders")
        .select(["external_id", "payment_method_id"])
        .where("external_id", "=", last)
        .executeTakeFirst();
      ok = order?.payment_method_id === 9;
    }
  } finally {
    await portal.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`curl: ${ok ? "1 passed, 0 failed" : "0 passed, 1 failed"}`);
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  console.log("curl: 0 passed, 1 failed");
  process.exit(1);
});
