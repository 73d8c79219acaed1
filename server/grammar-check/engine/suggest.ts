// Safe suggestions (issue 24, ADR 072): the few harper suggestions automated proofreading applies without a
// human, from the same child host as the grammar check (lintInHost). Everything else harper says is left alone.
// Applied (GRAMMAR.md "Automated proofreading"):
//   spelling      a Spelling/Typo lint that survives the grammar check's filter ideas (no digits, no inner capital,
//                 not a dictionary word, not a scientific prefix compound, not in the science vocabulary) whose
//                 first usable suggestion is a dictionary word (nspell, the dialect's dictionary) within NEAR_EDITS
//                 edits, never a word split ("corelation" → "co relation"). A capitalised word only at the start of
//                 a sentence (elsewhere it is probably a name).
//   punctuation   a Punctuation/Formatting lint that only changes spaces (a space before a comma, two spaces).
//   repeated-word a Repetition lint "w w" → "w".
//   word-choice   the agreed confusables only: their/there/they're, its/it's, than/then, affect/effect, when harper
//                 proposes the other member of the same set.
// Never two changes that overlap: the earlier wins.
import type { RawLint } from "./report";
import { editDistance, isWordSplit, NEAR_EDITS } from "./report";
import { scienceVocabulary } from "./data";
import { lintInHost } from "./host";

export interface SafeSuggestion {
  start: number;
  end: number;
  replacement: string;
  rule: "spelling" | "punctuation" | "repeated-word" | "word-choice";
}

/** The agreed word-choice sets (ADR 072): a lint is applied only when problem and replacement are in one set. */
export const WORD_CHOICE_SETS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(["their", "there", "they're"]),
  new Set(["its", "it's"]),
  new Set(["than", "then"]),
  new Set(["affect", "effect", "affects", "effects", "affected", "effected"]),
];

const norm = (s: string) => s.toLowerCase().replace(/’/g, "'");

function sameWordChoiceSet(problem: string, replacement: string): boolean {
  const a = norm(problem.trim());
  const b = norm(replacement.trim());
  return a !== b && WORD_CHOICE_SETS.some((set) => set.has(a) && set.has(b));
}

/** Keeps the problem's initial capital on the replacement ("Their" → "There"). */
function matchCase(problem: string, replacement: string): string {
  if (/^\p{Lu}/u.test(problem) && /^\p{Ll}/u.test(replacement)) return replacement[0].toUpperCase() + replacement.slice(1);
  return replacement;
}

/** At the start of the text or after a sentence end (". ", "? ", "! ", a line break). */
function startsSentence(text: string, start: number): boolean {
  const before = text.slice(0, start).replace(/[\s"'“‘(]+$/u, "");
  return before === "" || /[.!?]$/.test(before) || /\n\s*$/.test(text.slice(0, start));
}

function spellingSuggestion(text: string, lint: RawLint, vocabulary: ReadonlySet<string>): string | null {
  const word = text.slice(lint.start, lint.end);
  if (!/^\p{L}+(?:['’]\p{L}+)?$/u.test(word)) return null;
  // No inner capital (acronyms, genes, units: "mRNA", "NaCl"); an initial capital only at a sentence start.
  if (/\p{Lu}/u.test(word.slice(1))) return null;
  if (/^\p{Lu}/u.test(word) && !startsSentence(text, lint.start)) return null;
  if (lint.dictionaryWord || lint.knownStem) return null;
  if (vocabulary.has(word.toLowerCase())) return null;
  for (let i = 0; i < lint.replacements.length; i++) {
    const r = lint.replacements[i].trim();
    if (r === "" || r === word) continue;
    // Never a word split, nor a hyphen or space the original did not have.
    if (isWordSplit(word, r) || /[\s-]/.test(r)) continue;
    if (lint.replacementWords?.[i] !== true) continue;
    if (editDistance(word.toLowerCase(), r.toLowerCase()) > NEAR_EDITS) continue;
    return matchCase(word, r);
  }
  return null;
}

/** Which of a text's raw lints are applied, and how (pure: the unit tests drive it with planted lints). */
export function selectSafe(
  text: string,
  lints: readonly RawLint[],
  vocabulary: ReadonlySet<string> = scienceVocabulary(),
): SafeSuggestion[] {
  const chosen: SafeSuggestion[] = [];
  const ordered = [...lints].sort((a, b) => a.start - b.start || a.end - b.end);
  for (const lint of ordered) {
    if (lint.end <= lint.start || lint.end > text.length) continue;
    const problem = text.slice(lint.start, lint.end);
    let pick: SafeSuggestion | null = null;
    if (lint.kind === "Spelling" || lint.kind === "Typo") {
      const r = spellingSuggestion(text, lint, vocabulary);
      if (r !== null) pick = { start: lint.start, end: lint.end, replacement: r, rule: "spelling" };
    } else if (lint.kind === "Punctuation" || lint.kind === "Formatting") {
      // Spacing only: the problem and the replacement are spaces (or nothing), and something changes.
      const r = lint.replacements[0];
      if (r !== undefined && /^[ \t]+$/.test(problem) && /^[ \t]*$/.test(r) && r.length < problem.length)
        pick = { start: lint.start, end: lint.end, replacement: r, rule: "punctuation" };
    } else if (lint.kind === "Repetition") {
      const words = problem.trim().split(/\s+/);
      const r = lint.replacements[0]?.trim();
      if (
        words.length === 2 &&
        norm(words[0]) === norm(words[1]) &&
        r !== undefined &&
        norm(r) === norm(words[0]) &&
        problem === problem.trim()
      )
        pick = { start: lint.start, end: lint.end, replacement: words[0], rule: "repeated-word" };
    } else {
      const r = lint.replacements[0];
      if (r !== undefined && sameWordChoiceSet(problem, r))
        pick = { start: lint.start, end: lint.end, replacement: matchCase(problem, r.trim()), rule: "word-choice" };
    }
    if (!pick || pick.replacement === problem) continue;
    const last = chosen.at(-1);
    if (last && pick.start < last.end) continue;
    chosen.push(pick);
  }
  return chosen;
}

/** The changes automated proofreading makes to a text (lints from the grammar engine's child; one call at a time). */
export async function safeSuggestions(text: string, dialect: "american" | "british"): Promise<SafeSuggestion[]> {
  if (!/[\p{L}\p{N}]/u.test(text)) return [];
  return selectSafe(text, await lintInHost(text, dialect));
}

/** The text with the suggestions applied (they never overlap). */
export function applySuggestions(text: string, suggestions: readonly SafeSuggestion[]): string {
  let out = "";
  let at = 0;
  for (const s of [...suggestions].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, s.start) + s.replacement;
    at = s.end;
  }
  return out + text.slice(at);
}
