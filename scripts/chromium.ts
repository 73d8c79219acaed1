// The Chromium every browser run here drives (the Playwright suites, the screenshots, scripts/bench-browser.ts), and
// how it is launched, in one place (ADR 083).
//
// Debian's chromium source package builds two binaries of one version: /usr/bin/chromium (the browser, whose
// --headless is the "new" headless mode: the whole browser without a window) and /usr/bin/chromium-headless-shell
// (the content-shell headless build Playwright itself drives by default). On CI's 2-core machine the shell opens a
// context and page in ~150 ms against ~450 ms and loads the sign-in page ~2.5× faster (the suite is CPU-bound, so
// that is wall time). The shell is preferred when installed; PLAYWRIGHT_CHROMIUM names another binary (for
// instance /usr/bin/chromium, to run the suite in the full browser).
import fs from "node:fs";

const CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

/** The binary to launch, or undefined (Playwright's own download, when neither Debian binary is installed). */
export function chromiumExecutable(): string | undefined {
  if (process.env.PLAYWRIGHT_CHROMIUM) return process.env.PLAYWRIGHT_CHROMIUM;
  return CANDIDATES.find((p) => fs.existsSync(p));
}

/** Launch flags: no sandbox (CI runs as root), no GPU, and none of the browser's own background traffic. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
