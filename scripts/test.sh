#!/usr/bin/env bash
# npm test: browser setup, type-check, build, vitest (server modules and HTTP
# against a real database), Playwright (JS and no-JS projects), then one
# closing line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .test-results
rm -f .test-results/vitest.json .test-results/e2e.json .test-results/curl.log
status=0
step() { echo; echo "── $1 ──"; }

step "browser"
bash scripts/setup-browser.sh || status=1

step "type-check"
if ! npx tsc --noEmit; then echo "type-check failed"; status=1; tc_failed=1; fi

step "lint"
npm run -s lint || { echo "lint failed"; status=1; lint_failed=1; }

step "build"
npx remix vite:build > .test-results/build.log 2>&1 || { cat .test-results/build.log; echo "build failed"; exit 1; }
echo "built"

step "vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=.test-results/vitest.json || status=1

step "playwright"
npx playwright test || status=1

step "order via curl"
npx tsx tests/curl/run.ts | tee .test-results/curl.log || status=1

node -e '
const fs = require("fs");
const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch { return null; } };
const v = read(".test-results/vitest.json");
const p = read(".test-results/e2e.json");
let passed = 0, failed = 0, skipped = 0;
if (v) { passed += v.numPassedTests; failed += v.numFailedTests + (v.numTotalTestSuites && !v.success && v.numFailedTests === 0 ? 1 : 0); skipped += v.numPendingTests + v.numTodoTests; } else failed += 1;
if (p) { passed += p.stats.expected + p.stats.flaky; failed += p.stats.unexpected; skipped += p.stats.skipped; } else failed += 1;
const curl = (() => { try { return fs.readFileSync(".test-results/curl.log", "utf8"); } catch { return ""; } })();
const cm = /curl: (\d+) passed, (\d+) failed/.exec(curl);
if (cm) { passed += Number(cm[1]); failed += Number(cm[2]); } else failed += 1;
if (process.argv[1] === "1") failed += 1;
if (process.argv[2] === "1") failed += 1; // lint
console.log("");
console.log(`vitest: ${v ? v.numPassedTests + " passed, " + v.numFailedTests + " failed" : "did not run"}; playwright: ${p ? (p.stats.expected + p.stats.flaky) + " passed, " + p.stats.unexpected + " failed" : "did not run"}${process.argv[1] === "1" ? "; type-check failed" : ""}`);
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "${tc_failed:-0}" "${lint_failed:-0}"
exit $status
