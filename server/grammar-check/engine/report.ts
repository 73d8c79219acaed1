// From harper's raw lints to the EngineReport (ADR 069): the spelling filter, the category table, the issue
// in its sentence, the counts and the score. Pure: the host (host.ts) gives the lints, this decides.
import { ISSUE_CATEGORIES, MIN_WORDS_TO_COUNT, type IssueCategory } from "#common/grammar-check/constants";
import type { EngineIssue, EngineReport } from "../types";
import { categoryOfKind } from "./categories";
import { scoreFromDensity, weightedDensity } from "./score";

/** One lint as the child process sends it (harper's Lint, flattened; offsets in UTF-16 code units of the text). */
export interface RawLint {
  kind: string;
  start: number;
  end: number;
  message: string;
  /** What would replace the span, per suggestion, in harper's order ("" = remove the span). */
  replacements: string[];
  /** Spelling/Typo only: the flagged word is accepted by nspell with the dialect's dictionary. */
  dictionaryWord?: boolean;
  /** Spelling/Typo only: the word is a scientific prefix ("neuro", "up", "pro"…) and a dictionary word (harper-host.mjs). */
  knownStem?: boolean;
  /** Spelling/Typo only: per replacement, every word of it is accepted by nspell (automated proofreading, ADR 072). */
  replacementWords?: boolean[];
}

/** At most this many issues are kept in a report (all are counted). */
export const ENGINE_ISSUE_LIMIT = 500;
/** The sentence shown around an issue is cut to about this many characters. */
export const CONTEXT_CHARS = 300;

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Words in the text: runs of letters and digits, joined by an apostrophe or a hyphen ("it's", "well-known"). */
export function countTextWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/**
 * The spelling filter (ADR 069). A Spelling or Typo lint is dropped when the word
 * - has a capital letter anywhere (a name, an acronym, a gene or a unit: "Garstung", "NaCl", "mRNA", "qPCR"),
 * - contains a digit,
 * - is accepted by nspell with dictionary-en / dictionary-en-gb for the dialect (harper's own word list is smaller),
 *   or is a word-forming prefix and such a word ("proinflammatory", "upregulated", "neuroinflammation"),
 * - has no suggestion but splits into words ("coexpression" → "co expression": a compound, not a typo),
 * - is a Spelling lint on a word of FAR_WORD_LENGTH letters or more none of whose suggestions is within
 *   NEAR_EDITS edits ("astrogliosis" → "astrologist", "transcriptomic" → "transcript's"): a word the dictionaries
 *   do not know, not a near miss of one they know (a typed typo or a misspelling is one or two edits away),
 * - is in the scientific vocabulary built from the calibration corpus (science-words.json).
 * Readability lints are dropped by the category table. Everything else is kept.
 */
export function keepLint(lint: RawLint, word: string, vocabulary: ReadonlySet<string>): boolean {
  if (categoryOfKind(lint.kind) === null) return false;
  if (lint.kind !== "Spelling" && lint.kind !== "Typo") return true;
  if (/\p{Lu}/u.test(word)) return false;
  if (/\p{N}/u.test(word)) return false;
  if (lint.dictionaryWord || lint.knownStem) return false;
  if (lint.replacements.length > 0 && lint.replacements.every((r) => isWordSplit(word, r))) return false;
  if (lint.kind === "Spelling" && isFarFromSuggestions(word, lint.replacements)) return false;
  if (vocabulary.has(word.toLowerCase())) return false;
  return true;
}

/** Spelling lints on words this long are dropped when no suggestion is within NEAR_EDITS edits (see keepLint). */
export const FAR_WORD_LENGTH = 8;
export const NEAR_EDITS = 2;

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of adjacent letters. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** A long word none of whose (non-split) suggestions is a near miss: unknown to the dictionaries, not misspelled. */
export function isFarFromSuggestions(word: string, replacements: readonly string[]): boolean {
  if ([...word].length < FAR_WORD_LENGTH) return false;
  const lower = word.toLowerCase();
  return !replacements.some((r) => !isWordSplit(word, r) && editDistance(lower, r.trim().toLowerCase()) <= NEAR_EDITS);
}

/**
 * A replacement that splits one word into several ("corelation" → "co relation") is never offered as a spelling
 * suggestion: harper's speller proposes them for unknown technical words, and they are almost always wrong.
 * (A BoundaryError lint, "alot" → "a lot", is about the split itself and keeps it.)
 */
export function isWordSplit(problem: string, replacement: string): boolean {
  const squeeze = (s: string) => s.replace(/[\s-]+/g, "").toLowerCase();
  return !/\s/.test(problem.trim()) && /\s/.test(replacement.trim()) && squeeze(problem) === squeeze(replacement);
}

/** The first suggestion (for Spelling/Typo: that is not a word split), without harper's trailing space; else null. */
export function firstSuggestion(kind: string, problem: string, replacements: readonly string[]): string | null {
  const spelling = kind === "Spelling" || kind === "Typo";
  for (const r of replacements) {
    if (spelling && isWordSplit(problem, r)) continue;
    const value = r.trim() === "" ? "" : r.trimEnd();
    if (value === problem) continue;
    return value;
  }
  return null;
}

/**
 * The sentence around [start, end): back to the previous sentence end (". ", "? ", "! ") or line break, on to
 * the next one, then cut to about CONTEXT_CHARS around the span (at word boundaries, with "…").
 */
export function sentenceAround(text: string, start: number, end: number): { sentence: string; start: number; end: number } {
  let from = start;
  while (from > 0) {
    const c = text[from - 1];
    if (c === "\n") break;
    if (
      /\s/.test(c) &&
      from >= 2 &&
      /[.!?]/.test(text[from - 2]) &&
      !/\b(?:e\.g|i\.e|et al|cf|Fig|fig|vs|approx|Dr|Mr|Mrs)\.$/.test(text.slice(Math.max(0, from - 8), from - 1))
    )
      break;
    from--;
  }
  let to = Math.max(end, start);
  while (to < text.length) {
    const c = text[to];
    if (c === "\n") break;
    to++;
    if (/[.!?]/.test(c) && (to === text.length || /\s/.test(text[to])) && to > end) break;
  }
  // Leading spaces out; the span itself may be a space (a space before a comma), so never past it.
  while (from < start && /\s/.test(text[from])) from++;
  while (to > end && /\s/.test(text[to - 1])) to--;
  if (to - from > CONTEXT_CHARS) {
    const spanLength = end - start;
    const room = Math.max(0, CONTEXT_CHARS - spanLength);
    let cutFrom = Math.max(from, start - Math.floor(room / 2));
    let cutTo = Math.min(to, cutFrom + spanLength + room);
    cutFrom = Math.max(from, Math.min(cutFrom, cutTo - spanLength - room));
    // Whole words at the cut edges.
    if (cutFrom > from) {
      const space = text.indexOf(" ", cutFrom);
      if (space !== -1 && space < start) cutFrom = space + 1;
    }
    if (cutTo < to) {
      const space = text.lastIndexOf(" ", cutTo);
      if (space >= end) cutTo = space;
    }
    const head = cutFrom > from ? "…" : "";
    const tail = cutTo < to ? "…" : "";
    return { sentence: head + text.slice(cutFrom, cutTo) + tail, start: start - cutFrom + head.length, end: end - cutFrom + head.length };
  }
  return { sentence: text.slice(from, to), start: start - from, end: end - from };
}

export function emptyCounts(): Record<IssueCategory, number> {
  return Object.fromEntries(ISSUE_CATEGORIES.map((c) => [c, 0])) as Record<IssueCategory, number>;
}

/** The report of a text from its lints: filter, categorise, count all, keep ENGINE_ISSUE_LIMIT in context, score. */
export function buildReport(
  text: string,
  lints: readonly RawLint[],
  dialect: "american" | "british",
  vocabulary: ReadonlySet<string>,
): EngineReport {
  const words = countTextWords(text);
  const errorCount = emptyCounts();
  const issues: EngineIssue[] = [];
  const ordered = [...lints].sort((a, b) => a.start - b.start || a.end - b.end);
  for (const lint of ordered) {
    const problem = text.slice(lint.start, lint.end);
    if (!keepLint(lint, problem, vocabulary)) continue;
    const category = categoryOfKind(lint.kind);
    if (category === null) continue;
    errorCount[category]++;
    if (issues.length >= ENGINE_ISSUE_LIMIT) continue;
    const context = sentenceAround(text, lint.start, lint.end);
    issues.push({
      category,
      kind: lint.kind,
      message: lint.message,
      suggestion: firstSuggestion(lint.kind, problem, lint.replacements),
      sentence: context.sentence,
      start: context.start,
      end: context.end,
    });
  }
  const density = weightedDensity(errorCount, words);
  return { words, dialect, issues, errorCount, density, score: scoreFromDensity(density), countSkipped: words < MIN_WORDS_TO_COUNT };
}
