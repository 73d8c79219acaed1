// npm run bench:grammar (and the end of npm run bench), ADR 069: the grammar engine's two budgets of issue 23 §6.
// 1. A 10,000-word manuscript scored in ≤ 3 s of worker time after warm-up: assessText's wall time (the worker
//    waits for it; the child does the work) and the child's CPU time, on fresh 10,000-word texts (harper caches an identical text).
// 2. The worker's RSS bounded over 100 jobs: the child's RSS after each of BENCH_GRAMMAR_JOBS (default 100) jobs
//    of 1,500 fresh words each, and the calling process's own RSS, with the child's restarts (RSS or call bound).
// Texts: Brown genre J (edited academic prose, American English of 1961), cut into windows.
import os from "node:os";
import { assessText, HOST_LIMITS, hostStats, stopEngine, warmEngine } from "#server/grammar-check/engine";
import { brownLearned } from "./grammar-corpus";

const JOBS = Number(process.env.BENCH_GRAMMAR_JOBS ?? 100);
const MB = 1024 * 1024;

/** A window of `count` words of the corpus starting at word `from` (wrapping), paragraphs kept. */
function windowOf(words: string[], from: number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(words[(from + i) % words.length]);
  return out.join(" ").replace(/ ¶ /g, "\n\n");
}

async function main() {
  const corpus = brownLearned()
    .map((t) => t.text.replace(/\n\n/g, " ¶ "))
    .join(" ¶ ")
    .split(" ");
  const started = performance.now();
  await warmEngine();
  // Warm-up proper: the first long text is slower still (harper's caches, V8's JIT in the child).
  await assessText(windowOf(corpus, 100_000, 10_000));
  const warmMs = performance.now() - started;

  const times: number[] = [];
  const cpu: number[] = [];
  for (const from of [0, 20_000, 40_000, 60_000, 80_000]) {
    const text = windowOf(corpus, from, 10_000);
    const t0 = performance.now();
    const report = await assessText(text);
    times.push(performance.now() - t0);
    cpu.push(hostStats().cpuMs);
    if (report.words < 9_000) throw new Error(`window has ${report.words} words`);
  }

  const childRss: number[] = [];
  const restartsBefore = hostStats().restarts;
  const jobsStarted = performance.now();
  for (let job = 0; job < JOBS; job++) {
    await assessText(windowOf(corpus, (job * 1_511) % corpus.length, 1_500));
    childRss.push(hostStats().rss);
  }
  const jobsSeconds = (performance.now() - jobsStarted) / 1000;
  const restarts = hostStats().restarts - restartsBefore;
  stopEngine();

  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const mb = (b: number) => `${Math.round(b / MB)} MB`;
  const sorted = [...times].sort((a, b) => a - b);
  const cpuSorted = [...cpu].sort((a, b) => a - b);
  const median = (values: number[]) => values[Math.floor(values.length / 2)];
  const max = (values: number[]) => values[values.length - 1];
  console.log("\nGrammar engine (harper.js in its child process; ADR 069)");
  console.log(`  warm-up (spawn, both dialects, one 10,000-word text): ${fmt(warmMs)}`);
  console.log(
    `  10,000-word manuscript after warm-up (${times.length} texts): wall median ${fmt(median(sorted))}, max ${fmt(max(sorted))}; child CPU median ${fmt(median(cpuSorted))}, max ${fmt(max(cpuSorted))} (bar: median ≤ 3 s) ${median(sorted) <= 3000 ? "OK" : "OVER"}`,
  );
  console.log(
    `  load average while measuring: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${os.cpus().length} CPUs`,
  );
  console.log(
    `  RSS over ${JOBS} jobs of 1,500 words (${jobsSeconds.toFixed(0)} s): child after job 1 ${mb(childRss[0])}, job 10 ${mb(childRss[Math.min(9, JOBS - 1)])}, ` +
      `max ${mb(Math.max(...childRss))}, last ${mb(childRss[childRss.length - 1])}; restarts ${restarts} (bound ${mb(HOST_LIMITS.maxRssBytes)} or ${HOST_LIMITS.maxCalls} calls); ` +
      `this process ${mb(process.memoryUsage().rss)} ${Math.max(...childRss) <= HOST_LIMITS.maxRssBytes ? "OK" : "OVER"}`,
  );
}

main().catch((error) => {
  stopEngine();
  console.error(error);
  process.exit(1);
});
