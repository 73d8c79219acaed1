// The one table from harper's lint kinds to the five categories of spec 3 §3, and the weight of each category
// in the score (ADR 069). Pure: the unit tests check that every kind harper 2.10 has is mapped.
import type { IssueCategory } from "#common/grammar-check/constants";

/** Every lint kind harper.js 2.10 reports (its `LintKind` type, 21 kinds). */
export const HARPER_KINDS = [
  "Agreement",
  "BoundaryError",
  "Capitalization",
  "Eggcorn",
  "Enhancement",
  "Formatting",
  "Grammar",
  "Malapropism",
  "Miscellaneous",
  "Nonstandard",
  "Punctuation",
  "Readability",
  "Redundancy",
  "Regionalism",
  "Repetition",
  "Spelling",
  "Style",
  "Typo",
  "Usage",
  "WordChoice",
  "WordOrder",
] as const;
export type HarperKind = (typeof HARPER_KINDS)[number];

/**
 * Kind → category. `null`: not an issue we count. Readability (long sentences) is dropped: learned prose is
 * made of long sentences, and in the calibration corpus it was the commonest lint after spelling (ADR 069).
 */
export const KIND_CATEGORY: Readonly<Record<HarperKind, IssueCategory | null>> = {
  Spelling: "consistencySpellingTypos",
  Typo: "consistencySpellingTypos",
  Capitalization: "consistencySpellingTypos",
  Regionalism: "consistencySpellingTypos",
  BoundaryError: "consistencySpellingTypos",
  Grammar: "grammarMechanics",
  Agreement: "grammarMechanics",
  Miscellaneous: "grammarMechanics",
  WordOrder: "grammarMechanics",
  Nonstandard: "grammarMechanics",
  Redundancy: "phrasing",
  Repetition: "phrasing",
  Style: "phrasing",
  Enhancement: "phrasing",
  Readability: null,
  Punctuation: "punctuation",
  Formatting: "punctuation",
  WordChoice: "wordChoice",
  Eggcorn: "wordChoice",
  Malapropism: "wordChoice",
  Usage: "wordChoice",
};

/** A kind harper may add in a later version falls here rather than being lost (and the ADR's table is updated). */
export const UNKNOWN_KIND_CATEGORY: IssueCategory = "grammarMechanics";

/** The category of a lint kind, or null when the kind is not counted. */
export function categoryOfKind(kind: string): IssueCategory | null {
  return kind in KIND_CATEGORY ? KIND_CATEGORY[kind as HarperKind] : UNKNOWN_KIND_CATEGORY;
}

/**
 * How much one issue of a category weighs in the density: errors a reader trips on (grammar, a wrong word)
 * count fully; a misspelling a little less (some are still unknown technical terms); punctuation half (mostly
 * spacing); phrasing little (style advice, often a matter of taste in scientific prose).
 */
export const CATEGORY_WEIGHTS: Readonly<Record<IssueCategory, number>> = {
  grammarMechanics: 1.0,
  wordChoice: 1.0,
  consistencySpellingTypos: 0.8,
  punctuation: 0.5,
  phrasing: 0.3,
};
