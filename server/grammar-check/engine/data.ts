// The engine's data files, written by scripts/grammar-calibrate.ts and committed (ADR 069): the reference
// scores of Brown genre J and the scientific vocabulary. Imported as modules, not read from disk beside this
// file: a page loader that reaches the percentile curve runs from the Remix server bundle (build/server), where
// this file's own location is not the source folder.
import type { PercentilePoint } from "../types";
import storedReferenceJson from "./reference.json";
import storedVocabularyJson from "./science-words.json";

/** Where grammar-calibrate writes them (relative to the project root). */
export const REFERENCE_FILE = "server/grammar-check/engine/reference.json";
export const VOCABULARY_FILE = "server/grammar-check/engine/science-words.json";

/** What the stored reference holds (reference.json). */
export interface StoredReference {
  source: "brown-learned";
  description: string;
  engineVersion: string;
  date: string;
  count: number;
  /** Per text: its Brown file id, words, density and score. */
  texts: Array<{ id: string; words: number; density: number; score: number }>;
  curve: PercentilePoint[];
}

export interface StoredVocabulary {
  rule: string;
  engineVersion: string;
  date: string;
  words: string[];
}

let vocabulary: ReadonlySet<string> | null = null;

/** The scientific vocabulary (lower case). */
export function scienceVocabulary(): ReadonlySet<string> {
  vocabulary ??= new Set((storedVocabularyJson as StoredVocabulary).words);
  return vocabulary;
}

/** The stored reference of Brown genre J. */
export function storedReference(): StoredReference {
  return storedReferenceJson as StoredReference;
}
