#!/usr/bin/env bash
# npm test: the vitest lanes (docs/conventions.md "Tests of an area"), Playwright (JS and no-JS
# projects) and the order via curl, then one closing line "N passed, N failed" (.ci/run reads it).
#
# Order and overlap, for a 2-core machine:
# - Chromium setup (mostly downloads) runs in the background until Playwright needs it;
# - the unit lane runs first, alone: a broken rule fails within seconds;
# - the db lane needs no build, so it runs beside the build, then type-check and lint, all niced, so the db lane's
#   timing-sensitive tests (a job done within a polling window) keep their CPU and only the idle cycles go to them;
#   type-check and lint go on in the background through the later lanes (their result is read before the summary),
#   so the http lane starts as soon as the db lane ends;
# - the http lane starts only when the db lane has finished: on PostgreSQL each vitest run's
#   global setup drops the `<db>_t_*` clones and rebuilds the template, so two must never overlap.
#
# With DATABASE_URL set (CI's second run, on PostgreSQL and Redis: ADR 068, 085) only what the stores can change runs
# again: the unit lane, type-check and lint (they read sources, not a database) and the fuzz suite run only in the
# embedded run, the build is reused when it is newer than the sources, and Playwright runs its JavaScript projects
# (the no-JS projects post the same forms to the same actions; they ran against PGlite in the first run).
set -uo pipefail
cd "$(dirname "$0")/.."
R=.test-results
mkdir -p "$R"
rm -f "$R"/vitest*.json "$R"/e2e.json "$R"/curl.log "$R"/db-lane.log "$R"/browser.log "$R"/typecheck.log "$R"/lint.log
status=0
started=$SECONDS
step() { echo; echo "── $1 ── (at $((SECONDS - started)) s)"; }
lane() { npx vitest run --project "$1" --reporter=default --reporter=json --outputFile.json="$R/vitest-$1.json"; }

# Apertium, the offline translator the db lane's engine test needs (ADR 072), then the browser: one apt-get at a
# time (apt holds a lock; a second install at the same moment fails at once).
bash scripts/setup-apertium.sh > "$R/apertium.log" 2>&1 &
apertium_pid=$!
(while kill -0 "$apertium_pid" 2>/dev/null; do sleep 1; done; bash scripts/setup-browser.sh) > "$R/browser.log" 2>&1 &
browser_pid=$!

# The unit lane reads no database: in the embedded run only (ADR 085).
if [ -z "${DATABASE_URL:-}" ]; then
  step "unit lane"
  lane unit || status=1
fi

step "db lane (in the background), build, then type-check and lint (niced, in the background)"
wait "$apertium_pid" || true
lane db > "$R/db-lane.log" 2>&1 &
db_pid=$!
if [ -z "${DATABASE_URL:-}" ]; then build_cmd=(npx remix vite:build); else build_cmd=(node scripts/ensure-build.mjs); fi
if ! nice -n 10 "${build_cmd[@]}" > "$R/build.log" 2>&1; then
  cat "$R/build.log"; echo "build failed"
  wait "$db_pid"; wait "$browser_pid"
  exit 1
fi
echo "built"
# Type-check and lint read sources, not a database: only in the embedded run. They run niced in the background from
# here until the summary, so the http lane starts the moment the db lane ends instead of after them (~80 s of the
# critical path on a 2-core machine, ADR 085); their output is shown before the summary.
checks_pid=""
if [ -z "${DATABASE_URL:-}" ]; then
  (
    s=0
    nice -n 10 npx tsc --noEmit > "$R/typecheck.log" 2>&1 || { echo "type-check failed" >> "$R/typecheck.log"; s=$((s | 1)); }
    nice -n 10 npm run -s lint > "$R/lint.log" 2>&1 || { echo "lint failed" >> "$R/lint.log"; s=$((s | 2)); }
    exit $s
  ) &
  checks_pid=$!
else
  echo "type-check and lint: in the embedded run (they read no database)"
fi

step "db lane"
wait "$db_pid" || status=1
cat "$R/db-lane.log"

step "http lane"
lane http || status=1

# A second machine (issue 26 §5, ADR 078): two web processes and a worker sharing PostgreSQL (CI's, or one the test
# starts in the embedded run), Redis when set and an S3-compatible test server; under a minute.
step "two-machine storage lane"
lane twoproc || status=1

# The fuzz suite (ADR 043): one database is enough (malformed input must be refused at the edge, before any
# database sees it), so only the PGlite run has it; about 3 minutes.
if [ -z "${DATABASE_URL:-}" ]; then
  step "fuzz lane"
  lane fuzz || status=1
fi

step "faults lane"
lane faults || status=1

step "browser"
wait "$browser_pid" || status=1
cat "$R/browser.log"

step "playwright"
if [ -z "${DATABASE_URL:-}" ]; then
  npx playwright test || status=1
else
  npx playwright test --project js --project js-flagged || status=1
fi

step "order via curl"
npx tsx tests/curl/run.ts | tee "$R/curl.log" || status=1

if [ -n "$checks_pid" ]; then
  step "type-check and lint"
  wait "$checks_pid"; checks=$?
  cat "$R/typecheck.log" "$R/lint.log"
  if [ $((checks & 1)) -ne 0 ]; then status=1; tc_failed=1; fi
  if [ $((checks & 2)) -ne 0 ]; then status=1; lint_failed=1; fi
fi

step "done"
node -e '
const fs = require("fs");
const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch { return null; } };
const lanes = [...(process.env.DATABASE_URL ? [] : ["unit"]), "db", "http", "twoproc", "faults", ...(process.env.DATABASE_URL ? [] : ["fuzz"])].map((name) => ({ name, v: read(`.test-results/vitest-${name}.json`) }));
const p = read(".test-results/e2e.json");
let passed = 0, failed = 0, skipped = 0;
for (const { v } of lanes) {
  if (v) { passed += v.numPassedTests; failed += v.numFailedTests + (v.numTotalTestSuites && !v.success && v.numFailedTests === 0 ? 1 : 0); skipped += v.numPendingTests + v.numTodoTests; } else failed += 1;
}
if (p) { passed += p.stats.expected + p.stats.flaky; failed += p.stats.unexpected; skipped += p.stats.skipped; } else failed += 1;
const curl = (() => { try { return fs.readFileSync(".test-results/curl.log", "utf8"); } catch { return ""; } })();
const cm = /curl: (\d+) passed, (\d+) failed/.exec(curl);
if (cm) { passed += Number(cm[1]); failed += Number(cm[2]); } else failed += 1;
if (process.argv[1] === "1") failed += 1;
if (process.argv[2] === "1") failed += 1; // lint
console.log("");
const lane = ({ name, v }) => `${name}: ${v ? v.numPassedTests + " passed, " + v.numFailedTests + " failed" : "did not run"}`;
console.log(`vitest ${lanes.map(lane).join("; ")}; playwright: ${p ? (p.stats.expected + p.stats.flaky) + " passed, " + p.stats.unexpected + " failed" : "did not run"}${process.argv[1] === "1" ? "; type-check failed" : ""}`);
// The names of what failed, last (CI shows the tail of this output): vitest files and tests, Playwright tests.
const failures = [];
// The first line of the error (colours stripped): the CI report shows only the tail of the output (session 14).
const firstLine = (m) => (m ? " — " + String(m).replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim())?.trim().slice(0, 240) : "");
for (const { name, v } of lanes) {
  if (!v) failures.push(`${name}: the lane did not run or wrote no results`);
  for (const f of v?.testResults ?? []) {
    const bad = (f.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of bad) failures.push(`${name}: ${f.name.replace(process.cwd() + "/", "")} › ${a.fullName}` + firstLine((a.failureMessages ?? [])[0]));
    if (f.status === "failed" && !bad.length) failures.push(`${name}: ${f.name.replace(process.cwd() + "/", "")} (${String(f.message ?? "").split("\n")[0].slice(0, 200)})`);
  }
}
const walk = (suite, file) => {
  for (const s of suite.suites ?? []) walk(s, s.file ?? file);
  for (const spec of suite.specs ?? [])
    for (const t of spec.tests ?? [])
      if (t.status === "unexpected") {
        const r = (t.results ?? []).at(-1);
        const notes = (t.annotations ?? []).map((a) => ` [${a.type}: ${String(a.description ?? "").slice(0, 200)}]`).join("");
        failures.push(`playwright [${t.projectName}]: ${spec.file ?? file}:${spec.line} › ${spec.title}` + firstLine(r?.error?.message) + notes);
      }
};
for (const s of p?.suites ?? []) walk(s, s.file);
if (!p) failures.push("playwright: did not run or wrote no results");
if (cm && Number(cm[2]) > 0) failures.push("curl: the order via curl");
if (process.argv[1] === "1") failures.push("type-check");
if (process.argv[2] === "1") failures.push("lint");
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "${tc_failed:-0}" "${lint_failed:-0}"
exit $status
