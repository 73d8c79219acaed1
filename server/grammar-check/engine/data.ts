// The engine's data files, written by scripts/grammar-calibrate.ts and committed (ADR 069): the reference
// scores of Brown genre J and the scientific vocabulary. Read once, beside this module.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PercentilePoint } from "../types";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REFERENCE_FILE = path.join(HERE, "reference.json");
export const VOCABULARY_FILE = path.join(HERE, "science-words.json");

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
let reference: StoredReference | null = null;

/** The scientific vocabulary (lower case); empty before the first calibration. */
export function scienceVocabulary(): ReadonlySet<string> {
  if (!vocabulary) {
    vocabulary = fs.existsSync(VOCABULARY_FILE)
      ? new Set((JSON.parse(fs.readFileSync(VOCABULARY_FILE, "utf8")) as StoredVocabulary).words)
      : new Set<string>();
  }
  return vocabulary;
}

/** The stored reference, or null before the first calibration. */
export function storedReference(): StoredReference | null {
  if (!reference && fs.existsSync(REFERENCE_FILE)) reference = JSON.parse(fs.readFileSync(REFERENCE_FILE, "utf8")) as StoredReference;
  return reference;
}
