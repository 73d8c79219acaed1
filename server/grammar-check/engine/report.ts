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
 * - is in the scientific vocabulary built from the calibration corpus (science-words.json).
 * Readability lints are dropped by the category table. Everything else is kept.
 */
export function keepLint(lint: RawLint, word: string, vocabulary: ReadonlySet<string>): boolean {
  if (categoryOfKind(lint.kind) === null) return false;
  if (lint.kind !== "Spelling" && lint.kind !== "Typo") return true;
  if (/\p{Lu}/u.test(word)) return false;
  if (/\p{N}/u.test(word)) return false;
  if (lint.dictionaryWord) return false;
  if (vocabulary.has(word.toLowerCase())) return false;
  return true;
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
