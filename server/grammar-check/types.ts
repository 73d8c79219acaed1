// The grammar check's shapes, shared by the engine (server/grammar-check/engine), the domain, the API and the
// pages. The engine produces an EngineReport; the domain stores it and answers AssessmentView / AssessmentDetails.
import type { AssessmentStatus, IssueCategory, ScoreCategory } from "#common/grammar-check/constants";

/** One issue the engine found, in its context (the sentence it is in). Offsets are within `sentence`. */
export interface EngineIssue {
  category: IssueCategory;
  /** Harper's lint kind ("Spelling", "Punctuation"…), kept for the ADR's table and for staff. */
  kind: string;
  /** What is wrong, in English as the engine says it (the page translates the category, not this text). */
  message: string;
  /** The replacement the engine suggests, or null when it has none. */
  suggestion: string | null;
  /** The sentence (at most ~300 characters, cut around the issue) and the flagged span in it. */
  sentence: string;
  start: number;
  end: number;
}

export interface EngineReport {
  /** Words counted in the text. */
  words: number;
  dialect: "american" | "british";
  /** Every issue after filtering, in document order; at most ENGINE_ISSUE_LIMIT kept. */
  issues: EngineIssue[];
  /** Issues per category (all of them, not only those kept). */
  errorCount: Record<IssueCategory, number>;
  /** Weighted issues per 100 words. */
  density: number;
  /** 0–10, one decimal. */
  score: number;
  /** True when the text is too short (< MIN_WORDS_TO_COUNT) for the count to mean anything: errorCountStatus skipped. */
  countSkipped: boolean;
}

/** A point of the percentile curve (spec 3 §3): the lowest score at that percentile. */
export interface PercentilePoint {
  percentile: number;
  minimumScore: number;
}

/** Which documents the percentile compares with (the report says it). */
export interface ReferenceSet {
  /** "brown-learned": the Brown corpus genre J texts; "portal": the portal's own completed assessments. */
  source: "brown-learned" | "portal";
  documents: number;
}

/** A row of the list and of /api/grammar-check/search (spec 3 §3 names). */
export interface AssessmentView {
  identity: string;
  fileIdentity: string;
  name: string;
  createdAt: string;
  score: number | null;
  percentile: number | null;
  scoreStatus: AssessmentStatus;
  errorCountStatus: AssessmentStatus;
  errorCount: Record<IssueCategory, number> | null;
  /** Derived from the score once complete. */
  category: ScoreCategory | null;
  complete: boolean;
  processing: boolean;
  failed: boolean;
}

export interface AssessmentSearch {
  results: AssessmentView[];
  pagination: { page: number; pageSize: number; total: number; pages: number };
  percentiles: PercentilePoint[];
  reference: ReferenceSet;
}

/** The details page: the row, its issues in context, the curve, the reference set and the word count. */
export interface AssessmentDetails extends AssessmentView {
  words: number | null;
  dialect: "american" | "british" | null;
  issues: EngineIssue[];
  percentiles: PercentilePoint[];
  reference: ReferenceSet;
}
