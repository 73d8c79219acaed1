import fs from "node:fs";
import path from "node:path";
import { buildTemplate } from "./template";

// Runs once before all test files: the Remix build must exist for HTTP tests,
// and the template database is created fresh.
export default async function setup() {
  if (!fs.existsSync(path.resolve("build/server/index.js"))) {
    throw new Error("build/server/index.js is missing: run `npm run build` (npm test does) before vitest.");
  }
  await buildTemplate(process.env.DATABASE_URL);
}
