// The grammar engine's pure parts (ADR 069): the category table, the score function and its calibration
// against spec 3's thresholds, the percentile curve and lookup, dialect detection, the spelling filter, the
// suggestion rule and the sentence context. No child process here (tests/db/grammar-engine.test.ts runs harper).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { AVERAGE_FROM, EXCEPTIONAL_FROM, ISSUE_CATEGORIES, scoreCategory } from "#common/grammar-check/constants";
import { CATEGORY_WEIGHTS, HARPER_KINDS, KIND_CATEGORY, categoryOfKind } from "../../server/grammar-check/engine/categories";
import { detectDialect, dialectSigns } from "../../server/grammar-check/engine/dialect";
import {
  buildReport,
  countTextWords,
  ENGINE_ISSUE_LIMIT,
  firstSuggestion,
  isWordSplit,
  keepLint,
  editDistance,
  sentenceAround,
  type RawLint,
} from "../../server/grammar-check/engine/report";
import { buildCurve, densityForScore, percentileOf, scoreFromDensity, weightedDensity } from "../../server/grammar-check/engine/score";
import { ENGINE_VERSION, PORTAL_REFERENCE_MIN, referenceCurve } from "../../server/grammar-check/engine/assess";
import { scienceVocabulary, storedReference } from "../../server/grammar-check/engine/data";

const counts = (partial: Partial<Record<(typeof ISSUE_CATEGORIES)[number], number>>) =>
  Object.fromEntries(ISSUE_CATEGORIES.map((c) => [c, partial[c] ?? 0])) as Record<(typeof ISSUE_CATEGORIES)[number], number>;

describe("category table", () => {
  it("maps every one of harper's 21 lint kinds, and only those", () => {
    expect(HARPER_KINDS).toHaveLength(21);
    expect(Object.keys(KIND_CATEGORY).sort()).toEqual([...HARPER_KINDS].sort());
  });

  it("matches the LintKind type of the installed harper.js", () => {
    const dts = fs.readFileSync("node_modules/harper.js/dist/index.d.ts", "utf8");
    const declared = /export declare type LintKind = ([^;]+);/.exec(dts)?.[1] ?? "";
    const kinds = [...declared.matchAll(/'(\w+)'/g)].map((m) => m[1]).sort();
    expect(kinds).toEqual([...HARPER_KINDS].sort());
    const version = JSON.parse(fs.readFileSync("node_modules/harper.js/package.json", "utf8")).version as string;
    expect(ENGINE_VERSION).toContain(`harper.js@${version}`);
  });

  it("puts each kind in one of the five categories, Readability in none, and every category is reached", () => {
    const reached = new Set<string>();
    for (const kind of HARPER_KINDS) {
      const category = KIND_CATEGORY[kind];
      if (kind === "Readability") expect(category).toBeNull();
      else {
        expect(ISSUE_CATEGORIES).toContain(category);
        reached.add(category!);
      }
    }
    expect([...reached].sort()).toEqual([...ISSUE_CATEGORIES].sort());
    expect(categoryOfKind("Spelling")).toBe("consistencySpellingTypos");
    expect(categoryOfKind("Agreement")).toBe("grammarMechanics");
    expect(categoryOfKind("SomethingNew")).toBe("grammarMechanics");
  });

  it("weighs every category", () => {
    for (const category of ISSUE_CATEGORIES) expect(CATEGORY_WEIGHTS[category]).toBeGreaterThan(0);
  });
});

describe("score", () => {
  it("is 10 for a clean text and falls as the weighted density grows", () => {
    expect(scoreFromDensity(0)).toBe(10);
    let previous = 10;
    for (let d = 0.25; d < 40; d += 0.25) {
      const s = scoreFromDensity(d);
      expect(s).toBeLessThanOrEqual(previous);
      expect(s).toBeGreaterThan(0);
      previous = s;
    }
    expect(scoreFromDensity(-1)).toBe(10);
  });

  it("has one decimal", () => {
    for (const d of [0.3, 0.88, 1.7, 2.25, 9.6, 13.33]) expect(Math.round(scoreFromDensity(d) * 10) / 10).toBe(scoreFromDensity(d));
  });

  it("puts spec 3's thresholds where the ADR says: 6.1 at 2.24 weighted issues per 100 words, 2.69 near 9.5", () => {
    expect(densityForScore(EXCEPTIONAL_FROM)).toBeGreaterThan(2);
    expect(densityForScore(EXCEPTIONAL_FROM)).toBeLessThan(2.5);
    expect(densityForScore(AVERAGE_FROM)).toBeGreaterThan(9);
    expect(densityForScore(AVERAGE_FROM)).toBeLessThan(10);
    expect(scoreCategory(scoreFromDensity(0.9))).toBe("exceptional");
    expect(scoreCategory(scoreFromDensity(5))).toBe("average");
    expect(scoreCategory(scoreFromDensity(12))).toBe("poor");
  });

  it("weighs the density per category, per 100 words", () => {
    expect(weightedDensity(counts({ grammarMechanics: 2 }), 200)).toBe(1);
    expect(weightedDensity(counts({ phrasing: 10 }), 1000)).toBe(0.3);
    expect(weightedDensity(counts({ punctuation: 4, consistencySpellingTypos: 5 }), 100)).toBe(6);
    expect(weightedDensity(counts({ wordChoice: 3 }), 0)).toBe(0);
  });
});

describe("percentile curve and lookup", () => {
  const scores = [9.1, 4.2, 7.7, 8.8, 6.0, 9.9, 8.1, 5.5, 7.0, 8.4];

  it("has 101 points, non-decreasing, from 0 to the best score", () => {
    const curve = buildCurve(scores);
    expect(curve).toHaveLength(101);
    expect(curve.map((p) => p.percentile)).toEqual(Array.from({ length: 101 }, (_, i) => i));
    for (let i = 1; i < curve.length; i++) expect(curve[i].minimumScore).toBeGreaterThanOrEqual(curve[i - 1].minimumScore);
    expect(curve[0].minimumScore).toBe(0);
    expect(curve[100].minimumScore).toBe(9.9);
    expect(curve[50].minimumScore).toBe(7.7);
  });

  it("looks a score up: at or above p % of the set", () => {
    const curve = buildCurve(scores);
    expect(percentileOf(9.9, curve)).toBe(100);
    expect(percentileOf(10, curve)).toBe(100);
    expect(percentileOf(0, curve)).toBe(0);
    expect(percentileOf(4.2, curve)).toBe(10);
    expect(percentileOf(7.7, curve)).toBe(50);
    expect(percentileOf(7.8, curve)).toBe(50);
    expect(percentileOf(8.1, curve)).toBe(60);
    // Monotone in the score.
    let previous = 0;
    for (let s = 0; s <= 10; s += 0.1) {
      const p = percentileOf(s, curve);
      expect(Number.isInteger(p)).toBe(true);
      expect(p).toBeGreaterThanOrEqual(previous);
      previous = p;
    }
  });

  it("stores the Brown genre J reference: 80 texts, its curve rebuilt from its scores, 6.1 at its roughest text", () => {
    const { curve, reference } = referenceCurve();
    const stored = storedReference();
    expect(reference).toEqual({ source: "brown-learned", documents: 80 });
    expect(stored.texts).toHaveLength(80);
    expect(stored.engineVersion).toBe(ENGINE_VERSION);
    expect(curve).toEqual(buildCurve(stored.texts.map((t) => t.score)));
    for (const t of stored.texts) expect(t.score).toBe(scoreFromDensity(t.density));
    // Spec 3's thresholds against edited academic prose (ADR 069): 6.1 sits at the roughest edited text, so
    // "exceptional" means as clean as published prose, and none of it is anywhere near "poor".
    const scoresOf = stored.texts.map((t) => t.score);
    expect(Math.min(...scoresOf)).toBeGreaterThanOrEqual(EXCEPTIONAL_FROM - 0.5);
    expect(Math.min(...scoresOf)).toBeLessThanOrEqual(EXCEPTIONAL_FROM + 0.5);
    expect(scoresOf.filter((s) => s < EXCEPTIONAL_FROM).length).toBeLessThanOrEqual(8);
    expect(scoresOf.some((s) => s < AVERAGE_FROM + 2)).toBe(false);
    expect(PORTAL_REFERENCE_MIN).toBe(200);
    expect(scienceVocabulary().size).toBeGreaterThan(20);
  });

  it("is empty for no scores, and an empty curve gives 0", () => {
    expect(buildCurve([])).toEqual([]);
    expect(percentileOf(8, [])).toBe(0);
  });
});

describe("dialect", () => {
  it("reads British spelling", () => {
    expect(detectDialect("The organisation analysed the colour of the tumour at the centre of the programme.")).toBe("british");
    expect(detectDialect("We characterised and optimised the haemoglobin assay; the behaviour was modelled.")).toBe("british");
  });

  it("reads American spelling, and defaults to it", () => {
    expect(detectDialect("The organization analyzed the color of the tumor at the center.")).toBe("american");
    expect(detectDialect("The results were consistent with the model.")).toBe("american");
  });

  it("does not take words spelled -ise everywhere, or the plural 'analyses', for British", () => {
    expect(dialectSigns("Otherwise the exercise, its premises and the analyses were precise and concise; a surprise.")).toEqual({
      british: 0,
      american: 0,
    });
    expect(detectDialect("We realize the analyses differ: the exercise was otherwise normalized.")).toBe("american");
  });
});

describe("spelling filter and suggestions", () => {
  const vocabulary = new Set(["thyroglobulin"]);
  const lint = (kind: string, extra: Partial<RawLint> = {}): RawLint => ({
    kind,
    start: 0,
    end: 1,
    message: "m",
    replacements: [],
    ...extra,
  });

  it("drops Readability, and Spelling/Typo for words with a capital or a digit, dictionary and vocabulary words", () => {
    expect(keepLint(lint("Readability"), "x", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling"), "Garstung", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling"), "qPCR", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling"), "brca1", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling", { dictionaryWord: true }), "colour", vocabulary)).toBe(false);
    expect(keepLint(lint("Typo"), "thyroglobulin", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling", { knownStem: true }), "neuroinflammation", vocabulary)).toBe(false);
    // Only a split to offer: a compound of two words, not a typo; a real suggestion beside it keeps the lint.
    expect(keepLint(lint("Typo", { replacements: ["up regulated"] }), "upregulated", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling", { replacements: ["co relation", "correlation"] }), "corelation", vocabulary)).toBe(true);
    // A long word whose nearest suggestion is far: unknown, not misspelled. A near miss stays, however long.
    expect(keepLint(lint("Spelling", { replacements: ["astrologist"] }), "astrogliosis", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling", { replacements: [] }), "neuroinflammatory", vocabulary)).toBe(false);
    expect(keepLint(lint("Spelling", { replacements: ["accommodation"] }), "accomodation", vocabulary)).toBe(true);
    expect(keepLint(lint("Spelling", { replacements: ["preparation"] }), "perparation", vocabulary)).toBe(true);
    expect(keepLint(lint("Spelling", { replacements: [] }), "recieve", vocabulary)).toBe(true);
    expect(keepLint(lint("Spelling"), "recieve", vocabulary)).toBe(true);
    // The filter is for spelling only: a capitalised grammar issue stays.
    expect(keepLint(lint("Grammar"), "Their", vocabulary)).toBe(true);
  });

  it("measures edits with adjacent swaps counting one", () => {
    expect(editDistance("recieve", "receive")).toBe(1);
    expect(editDistance("accomodation", "accommodation")).toBe(1);
    expect(editDistance("reccomend", "recommend")).toBe(2);
    expect(editDistance("astrogliosis", "astrologist")).toBeGreaterThan(2);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("never offers a word split as the spelling suggestion", () => {
    expect(isWordSplit("corelation", "co relation")).toBe(true);
    expect(isWordSplit("recieve", "receive")).toBe(false);
    expect(firstSuggestion("Spelling", "corelation", ["co relation", "correlation"])).toBe("correlation");
    expect(firstSuggestion("Typo", "corelation", ["co relation"])).toBeNull();
    // A boundary error is about the split: "alot" → "a lot" stays.
    expect(firstSuggestion("BoundaryError", "alot", ["a lot"])).toBe("a lot");
    expect(firstSuggestion("Grammar", "Their", ["They're ", "They're"])).toBe("They're");
    expect(firstSuggestion("Punctuation", " ", [""])).toBe("");
    expect(firstSuggestion("Spelling", "x", [])).toBeNull();
  });
});

describe("context", () => {
  it("gives the sentence the issue is in, with the span's offsets in it", () => {
    const text = "First sentence here. Then, e.g. this one has teh typo in it. Last one.";
    const start = text.indexOf("teh");
    const c = sentenceAround(text, start, start + 3);
    expect(c.sentence).toBe("Then, e.g. this one has teh typo in it.");
    expect(c.sentence.slice(c.start, c.end)).toBe("teh");
  });

  it("cuts a long sentence to about 300 characters around the span", () => {
    const text = "word ".repeat(200) + "teh " + "word ".repeat(200) + ".";
    const start = text.indexOf("teh");
    const c = sentenceAround(text, start, start + 3);
    expect(c.sentence.length).toBeLessThanOrEqual(302);
    expect(c.sentence.startsWith("…")).toBe(true);
    expect(c.sentence.endsWith("…")).toBe(true);
    expect(c.sentence.slice(c.start, c.end)).toBe("teh");
  });
});

describe("report", () => {
  const text = "The results shows teh effect. " + "Clean words follow here. ".repeat(30);
  const at = (s: string) => text.indexOf(s);
  const lints: RawLint[] = [
    { kind: "Typo", start: at("teh"), end: at("teh") + 3, message: "Did you mean the definite article?", replacements: ["the"] },
    { kind: "Readability", start: 0, end: 29, message: "long", replacements: [] },
    { kind: "Spelling", start: at("Clean"), end: at("Clean") + 5, message: "?", replacements: ["clean"] },
  ];

  it("filters, categorises, counts and scores", () => {
    const report = buildReport(text, lints, "american", new Set());
    expect(report.words).toBe(countTextWords(text));
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]).toMatchObject({
      category: "consistencySpellingTypos",
      kind: "Typo",
      suggestion: "the",
      sentence: "The results shows teh effect.",
    });
    expect(report.errorCount).toEqual(counts({ consistencySpellingTypos: 1 }));
    expect(report.density).toBe(weightedDensity(report.errorCount, report.words));
    expect(report.score).toBe(scoreFromDensity(report.density));
    expect(report.countSkipped).toBe(false);
  });

  it("keeps at most ENGINE_ISSUE_LIMIT issues and counts all", () => {
    const many = "a ".repeat(1000);
    const all: RawLint[] = Array.from({ length: 700 }, (_, i) => ({
      kind: "Grammar",
      start: i * 2,
      end: i * 2 + 1,
      message: "m",
      replacements: [],
    }));
    const report = buildReport(many, all, "american", new Set());
    expect(report.issues).toHaveLength(ENGINE_ISSUE_LIMIT);
    expect(report.errorCount.grammarMechanics).toBe(700);
  });

  it("skips the count under MIN_WORDS_TO_COUNT words", () => {
    expect(buildReport("Too short to count.", [], "american", new Set()).countSkipped).toBe(true);
  });
});
