// `npx tsx scripts/grammar-evaluate.ts` (ADR 069): plants known errors into clean reference text (every 4th text
// of Brown genre J: edited academic prose, American English of 1961) and prints the engine's recall per planted
// type and per category. One error per sentence at most, the type planted least so far that the sentence allows
// (so rare sites, "affect", "their", are used whenever they occur); sentences where the engine
// already finds something in the original are left alone, so a hit is the planted error's. A planted error is
// "found" when an issue kept by the engine's filter overlaps it (for a deleted article: the words either side),
// and "in its category" when that issue is also in the category the error belongs to.
import { ISSUE_CATEGORIES, type IssueCategory } from "#common/grammar-check/constants";
import { categoryOfKind } from "#server/grammar-check/engine/categories";
import { scienceVocabulary } from "#server/grammar-check/engine/data";
import { detectDialect } from "#server/grammar-check/engine/dialect";
import { lintInHost, stopHost } from "#server/grammar-check/engine/host";
import { keepLint, type RawLint } from "#server/grammar-check/engine/report";
import { brownLearned } from "./grammar-corpus";

interface Plant {
  sentence: string;
  /** The window (in the planted sentence) an issue must overlap. */
  start: number;
  end: number;
}
type Planter = (sentence: string, pick: (n: number) => number) => Plant | null;

const CONFUSABLES: Record<string, string> = { than: "then", then: "than", their: "there", there: "their", its: "it's" };
const AFFECT: Record<string, string> = { affect: "effect", effect: "affect", affects: "effects", effects: "affects" };
const AGREEMENT: Record<string, string> = { is: "are", are: "is", was: "were", were: "was", has: "have", have: "has" };

/** Words of a sentence with their offsets (letters only, so punctuation stays put). */
const wordsOf = (s: string) => [...s.matchAll(/[A-Za-z']+/g)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));

function replaceWord(sentence: string, table: Record<string, string>, pick: (n: number) => number): Plant | null {
  const candidates = wordsOf(sentence).filter((w) => w.word in table);
  if (!candidates.length) return null;
  const w = candidates[pick(candidates.length)];
  const replacement = table[w.word];
  return { sentence: sentence.slice(0, w.start) + replacement + sentence.slice(w.end), start: w.start, end: w.start + replacement.length };
}

const PLANTERS: Array<{ type: string; category: IssueCategory; plant: Planter }> = [
  {
    type: "typo (two letters swapped)",
    category: "consistencySpellingTypos",
    plant: (s, pick) => {
      const candidates = wordsOf(s).filter((w) => /^[a-z]{5,}$/.test(w.word));
      if (!candidates.length) return null;
      const w = candidates[pick(candidates.length)];
      const i = 1 + pick(w.word.length - 3);
      if (w.word[i] === w.word[i + 1]) return null;
      const swapped = w.word.slice(0, i) + w.word[i + 1] + w.word[i] + w.word.slice(i + 2);
      return { sentence: s.slice(0, w.start) + swapped + s.slice(w.end), start: w.start, end: w.end };
    },
  },
  {
    type: "space before comma",
    category: "punctuation",
    plant: (s, pick) => {
      const commas = [...s.matchAll(/\w, /g)].map((m) => m.index + 1);
      if (!commas.length) return null;
      const at = commas[pick(commas.length)];
      return { sentence: s.slice(0, at) + " " + s.slice(at), start: at, end: at + 2 };
    },
  },
  // harper files these under Grammar, Miscellaneous and Agreement: grammarMechanics in the table.
  { type: "than/then, their/there, its/it's", category: "grammarMechanics", plant: (s, pick) => replaceWord(s, CONFUSABLES, pick) },
  { type: "affect/effect", category: "wordChoice", plant: (s, pick) => replaceWord(s, AFFECT, pick) },
  { type: "subject–verb agreement", category: "grammarMechanics", plant: (s, pick) => replaceWord(s, AGREEMENT, pick) },
  {
    type: "article deleted",
    category: "grammarMechanics",
    plant: (s, pick) => {
      const words = wordsOf(s);
      const candidates = words.map((w, i) => ({ w, i })).filter(({ w, i }) => /^(the|a|an)$/.test(w.word) && i > 0 && i < words.length - 1);
      if (!candidates.length) return null;
      const { w, i } = candidates[pick(candidates.length)];
      const planted = s.slice(0, w.start) + s.slice(w.end + 1);
      // The window: the word before and the word after the gap.
      return { sentence: planted, start: words[i - 1].start, end: words[i + 1].end - (w.end + 1 - w.start) };
    },
  },
  {
    type: "doubled word",
    category: "phrasing",
    plant: (s, pick) => {
      const candidates = wordsOf(s).filter((w) => /^[a-z]{2,}$/.test(w.word));
      if (!candidates.length) return null;
      const w = candidates[pick(candidates.length)];
      return { sentence: s.slice(0, w.end) + " " + w.word + s.slice(w.end), start: w.start, end: w.end * 2 - w.start + 1 };
    },
  },
];

/** A small deterministic generator, so the ADR's numbers can be reproduced. */
function rng(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((x / 2_147_483_648) * n);
  };
}

async function main() {
  const vocabulary = scienceVocabulary();
  const kept = (text: string, lints: RawLint[]) => lints.filter((l) => keepLint(l, text.slice(l.start, l.end), vocabulary));
  const texts = brownLearned().filter((_, i) => i % 4 === 0);
  const pick = rng(69);
  const stats = PLANTERS.map(() => ({ planted: 0, found: 0, inCategory: 0, landed: {} as Record<string, number> }));
  const plantedSoFar = PLANTERS.map(() => 0);
  let words = 0;
  let turn = 0;
  for (const { text } of texts) {
    const dialect = detectDialect(text);
    const before = kept(text, await lintInHost(text, dialect));
    const parts = text.split(/(?<=[.?!]"?)(\s+)/);
    let offset = 0;
    let planted = "";
    const plants: Array<{ kind: number; start: number; end: number }> = [];
    for (let p = 0; p < parts.length; p++) {
      const part = parts[p];
      const original = offset;
      offset += part.length;
      const isSentence = p % 2 === 0;
      const clean = !before.some((l) => l.end > original && l.start < original + part.length);
      if (!isSentence || !clean || wordsOf(part).length < 8) {
        planted += part;
        continue;
      }
      let done = false;
      const order = PLANTERS.map((_, k) => (turn + k) % PLANTERS.length).sort((a, b) => plantedSoFar[a] - plantedSoFar[b]);
      for (const kind of order) {
        if (done) break;
        const plant = PLANTERS[kind].plant(part, pick);
        if (!plant) continue;
        plantedSoFar[kind]++;
        plants.push({ kind, start: planted.length + plant.start, end: planted.length + plant.end });
        planted += plant.sentence;
        done = true;
      }
      if (done) turn++;
      else planted += part;
    }
    words += text.split(/\s+/).length;
    const after = kept(planted, await lintInHost(planted, dialect));
    for (const plant of plants) {
      const s = stats[plant.kind];
      s.planted++;
      const hits = after.filter((l) => l.end > plant.start && l.start < plant.end);
      if (hits.length) s.found++;
      for (const category of new Set(hits.map((l) => categoryOfKind(l.kind))))
        s.landed[String(category)] = (s.landed[String(category)] ?? 0) + 1;
      if (hits.some((l) => categoryOfKind(l.kind) === PLANTERS[plant.kind].category)) s.inCategory++;
    }
    process.stderr.write(".");
  }
  stopHost();
  process.stderr.write("\n");
  const pct = (a: number, b: number) => (b ? `${Math.round((100 * a) / b)} %` : "—");
  console.log(`Planted errors in ${texts.length} Brown genre J texts (${words} words; one per clean sentence at most)\n`);
  console.log("| planted error | category | planted | found | recall | found in its category | issues landed in |");
  console.log("|---|---|---|---|---|---|---|");
  PLANTERS.forEach((p, i) => {
    const s = stats[i];
    const landed = Object.entries(s.landed)
      .map(([c, n]) => `${c} ${n}`)
      .join(", ");
    console.log(
      `| ${p.type} | ${p.category} | ${s.planted} | ${s.found} | ${pct(s.found, s.planted)} | ${pct(s.inCategory, s.planted)} | ${landed || "—"} |`,
    );
  });
  console.log("\n| category | planted | found | recall | found in the category |");
  console.log("|---|---|---|---|---|");
  for (const category of ISSUE_CATEGORIES) {
    const rows = PLANTERS.map((p, i) => ({ p, s: stats[i] })).filter(({ p }) => p.category === category);
    const planted = rows.reduce((n, r) => n + r.s.planted, 0);
    const found = rows.reduce((n, r) => n + r.s.found, 0);
    const inCategory = rows.reduce((n, r) => n + r.s.inCategory, 0);
    console.log(`| ${category} | ${planted} | ${found} | ${pct(found, planted)} | ${pct(inCategory, planted)} |`);
  }
}

main().catch((error) => {
  stopHost();
  console.error(error);
  process.exit(1);
});
