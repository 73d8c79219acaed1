import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildTemplate } from "./template";

// Runs once per project that has test files queued (the db and http projects; the unit lane has
// no global setup): the template database is created fresh, and the http project demands the
// Remix build its tests import.
const shared = globalThis as typeof globalThis & { __portalTemplate?: Promise<void> };

export default async function setup(project: TestProject) {
  if (project.name === "http" && !fs.existsSync(path.resolve("build/server/index.js"))) {
    throw new Error("build/server/index.js is missing: run `npm run build` (npm test does) before the http lane.");
  }
  // One template per vitest run even when db and http run together: both setups run in this main
  // process, and building twice at once would drop the PostgreSQL template under the other.
  shared.__portalTemplate ??= buildTemplate(process.env.DATABASE_URL);
  await shared.__portalTemplate;
  // Test workers start after this and inherit it: createTestDatabase refuses to run without it, so a
  // database test left in tests/unit fails at once in the unit lane (npm run test:unit, npm test)
  // instead of cloning a stale template file.
  process.env.PORTAL_TEST_TEMPLATE = "built";
}
