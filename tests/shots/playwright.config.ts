import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumExecutable } from "../../scripts/chromium";

// The billing screenshots (issue 21 "Done when"): not a test suite — `npm run shots:billing` (after
// `npx remix vite:build`) saves PNGs of the invoice, pay, receipt and staff payment pages, JavaScript off, to
// SHOTS_DIR (/work/shots/billing by default) for a person to look at. The main suite's config (testDir tests/e2e)
// never runs it.
const PORT = Number(process.env.SHOTS_PORT ?? 3260);

export default defineConfig({
  testDir: ".",
  testMatch: /.*\.shots\.ts$/,
  outputDir: "../../.test-results/shots",
  timeout: 180_000,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    javaScriptEnabled: false,
    launchOptions: { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `npx tsx tests/shots/serve.ts`,
    cwd: "../..",
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT), HOST: "127.0.0.1", NODE_ENV: "production" },
    stdout: "ignore",
    stderr: "pipe",
  },
});
