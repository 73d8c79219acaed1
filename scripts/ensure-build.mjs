// Builds the app when build/ is missing or older than the sources, so that
// `npm start` on a fresh clone just works and a second start is instant.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

const root = process.cwd();
const marker = path.join(root, "build/server/index.js");
const sources = ["app", "server", "db", "locales", "public", "vite.config.ts", "remix.config.js", "package.json"];

function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

let builtAt = 0;
try {
  builtAt = fs.statSync(marker).mtimeMs;
} catch {
  /* not built */
}
const sourcesAt = Math.max(...sources.map((s) => newest(path.join(root, s))));
if (builtAt < sourcesAt || process.env.FORCE_BUILD === "1") {
  console.log(builtAt ? "Sources changed since the last build; building..." : "Building the portal (first start)...");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: "inherit", cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
