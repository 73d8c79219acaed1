// No money arithmetic outside the money module (issue 21 §5, ADR 054). `x * 10 ** d`, `x / 10 ** d`,
// `.toFixed(` and `parseFloat(` are how an amount gets into or out of binary floating point (0.29 × 100 is
// 28.999999999999996; (8999999999999999 / 100).toFixed(2) ends in .98); #common/money parses, writes and
// converts money as integers. This scans every source file of the product and fails on any of them outside
// that module, but for the short allow-list below: each entry names a file and a text its line must contain,
// and says why it is not money. A stale entry fails too, so the list shrinks with the code.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["app", "server", "db", "scripts"];
const MONEY_MODULE = "app/common/money.ts";

/** What turns an amount into a float or back. */
export const FLOAT_MONEY = [/\*\s*10\s*\*\*/, /\/\s*10\s*\*\*/, /\.toFixed\(/, /\bparseFloat\(/];

const ALLOWED: { file: string; line: string; why: string }[] = [
  { file: "server/db/index.ts", line: "queryDurationMillis.toFixed(1)", why: "the SQL timing log: milliseconds" },
  { file: "app/components/order-details/MainPanel.tsx", line: "MB`", why: "a file's size: 1.2 MB" },
  { file: "app/routes/staff.orders.$externalId.tsx", line: "MB`", why: "a file's size: 1.2 MB" },
  { file: "app/routes/certificate.verify.tsx", line: "KB`", why: "a file's size: 3.4 KB" },
  { file: "app/routes/certificate.verify.tsx", line: "MB`", why: "a file's size: 1.2 MB" },
  { file: "scripts/bench.ts", line: "r.rps", why: "benchmark report: requests per second" },
  { file: "scripts/bench.ts", line: "(100 * us) / total", why: "benchmark report: profile shares" },
  { file: "scripts/bench.ts", line: "ratio.toFixed(2)", why: "benchmark report: ratios to the floors" },
  { file: "scripts/bench.ts", line: "b.rps.toFixed(0)", why: "benchmark report: requests per second" },
  { file: "scripts/bench.ts", line: "(b.rps / b.rts).toFixed(2)", why: "benchmark report: ratio of the floors" },
  { file: "scripts/bench.ts", line: "(r.bytes / 1024).toFixed(1)", why: "benchmark report: page size" },
  { file: "scripts/bench.ts", line: "(r.htmlCss / 1024).toFixed(1)", why: "benchmark report: page weight" },
  { file: "scripts/bench.ts", line: "healthz.rps.toFixed(0)", why: "benchmark report: requests per second" },
  { file: "scripts/bench-browser.ts", line: "(n / 1024).toFixed(1)", why: "browser report: KiB" },
  { file: "scripts/bench-browser.ts", line: "mOn.toFixed(0)", why: "browser report: milliseconds" },
  { file: "scripts/bench-browser.ts", line: "mOff.toFixed(0)", why: "browser report: milliseconds" },
  { file: "scripts/bench-browser.ts", line: "median(firstBytes).toFixed(0)", why: "browser report: milliseconds" },
  { file: "scripts/bench-zip.ts", line: "MB", why: "benchmark report: sizes and speed" },
  { file: "app/components/grammar-check/IssuesChart.tsx", line: "width.toFixed(1)", why: "SVG coordinates of a bar" },
  { file: "app/components/grammar-check/PercentileChart.tsx", line: "x(p.percentile).toFixed(1)", why: "SVG path coordinates" },
  { file: "app/components/grammar-check/ScoreCircle.tsx", line: "circumference.toFixed(2)", why: "SVG stroke lengths" },
  { file: "scripts/bench-grammar.ts", line: "(ms / 1000).toFixed(2)", why: "benchmark report: seconds" },
  { file: "scripts/bench-grammar.ts", line: "l.toFixed(2)", why: "benchmark report: load average" },
  { file: "scripts/bench-grammar.ts", line: "jobsSeconds.toFixed(0)", why: "benchmark report: seconds" },
  { file: "scripts/grammar-calibrate.ts", line: "/ 1000).toFixed(1)", why: "calibration report: seconds" },
  { file: "scripts/grammar-calibrate.ts", line: "quantile(values, q).toFixed(2)", why: "calibration report: issue densities" },
  { file: "scripts/grammar-calibrate.ts", line: "densityForScore(threshold).toFixed(2)", why: "calibration report: issue density" },
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) out.push(...sourceFiles(rel));
    } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** The lines of `text` (1-based numbers) that use a float-money pattern, comments left out. */
export function floatMoneyLines(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  text.split("\n").forEach((line, i) => {
    const code = line.trim();
    if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return;
    if (FLOAT_MONEY.some((p) => p.test(code))) found.push({ line: i + 1, text: code });
  });
  return found;
}

describe("money stays in integers outside the money module", () => {
  it("recognises the patterns it forbids", () => {
    expect(floatMoneyLines("const major = (minor / 10 ** d).toFixed(d);")).toHaveLength(1);
    expect(floatMoneyLines("return Math.round(major * 10 ** currency.numDecimals);")).toHaveLength(1);
    expect(floatMoneyLines("const n = parseFloat(form.amount);")).toHaveLength(1);
    expect(floatMoneyLines("// (x / 100).toFixed(2) was wrong")).toHaveLength(0);
    expect(floatMoneyLines("const cents = majorText(minor, 2);")).toHaveLength(0);
  });

  it("finds none in app/, server/, db/ and scripts/ but the allowed non-money uses", () => {
    const files = FOLDERS.flatMap(sourceFiles).filter((f) => f !== MONEY_MODULE);
    expect(files.length).toBeGreaterThan(100);
    const used = new Set<(typeof ALLOWED)[number]>();
    const offending: string[] = [];
    for (const file of files) {
      for (const hit of floatMoneyLines(fs.readFileSync(path.join(ROOT, file), "utf8"))) {
        const allowed = ALLOWED.find((a) => a.file === file && hit.text.includes(a.line));
        if (allowed) used.add(allowed);
        else offending.push(`${file}:${hit.line}: ${hit.text}`);
      }
    }
    expect(offending, "use #common/money (parseMajor, majorText, formatMoney, minorOf, convertMinor, rescaleMinor)").toEqual([]);
    expect(
      ALLOWED.filter((a) => !used.has(a)),
      "allow-list entries that no longer match a line",
    ).toEqual([]);
  });
});
