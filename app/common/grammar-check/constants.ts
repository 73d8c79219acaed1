// The grammar check's fixed facts (spec 3 §3, §4, §5, §9): categories of issues, score thresholds and colours,
// polling and page size. Isomorphic: the engine, the domain, the API and the pages read the same table.

/** The five categories of issues (spec 3 §3 "Language assessment"), in display order. */
export const ISSUE_CATEGORIES = ["consistencySpellingTypos", "grammarMechanics", "phrasing", "punctuation", "wordChoice"] as const;
export type IssueCategory = (typeof ISSUE_CATEGORIES)[number];

/** Status of the score and of the error count (spec 3 §3, §4). The count alone may be skipped. */
export const ASSESSMENT_STATUSES = ["processing", "completed", "failed", "skipped"] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

/** Score scale and the category thresholds (spec 3 §4, §9). */
export const SCORE_MAX = 10;
export const EXCEPTIONAL_FROM = 6.1;
export const AVERAGE_FROM = 2.69;

export type ScoreCategory = "exceptional" | "average" | "poor";

/** Category from score: 6.1 or more exceptional, 2.69 or more average, else poor (spec 3 §4). */
export function scoreCategory(score: number): ScoreCategory {
  if (score >= EXCEPTIONAL_FROM) return "exceptional";
  if (score >= AVERAGE_FROM) return "average";
  return "poor";
}

/** Poor or average recommends editing services (spec 3 §4). */
export function recommendsEditing(category: ScoreCategory): boolean {
  return category !== "exceptional";
}

/** Colours (spec 3 §9): poor red, average amber, exceptional green; chosen for ≥ 4.5:1 contrast on white. */
export const SCORE_COLOURS: Readonly<Record<ScoreCategory, string>> = {
  poor: "#b42318",
  average: "#b54708",
  exceptional: "#067647",
};

/** Score display: one decimal (spec 3 §5). */
export function scoreText(score: number, locale = "en"): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(score);
}

/** An assessment is complete when the score is completed and the count completed or skipped (spec 3 §4). */
export function isComplete(scoreStatus: AssessmentStatus, errorCountStatus: AssessmentStatus): boolean {
  return scoreStatus === "completed" && (errorCountStatus === "completed" || errorCountStatus === "skipped");
}

/** Processing: either status still running. */
export function isProcessing(scoreStatus: AssessmentStatus, errorCountStatus: AssessmentStatus): boolean {
  return scoreStatus === "processing" || errorCountStatus === "processing";
}

/** Failed: either status failed ('could not complete', delete offered: spec 3 §2, §8). */
export function isFailed(scoreStatus: AssessmentStatus, errorCountStatus: AssessmentStatus): boolean {
  return scoreStatus === "failed" || errorCountStatus === "failed";
}

/** Polling while anything is processing (spec 3 §4, §9). */
export const POLL_SECONDS = 30;
/** The list's page size (spec 3 §9 "Page size constant: 30 generally"). */
export const ASSESSMENT_PAGE_SIZE = 30;
/** Upload: one manuscript, .doc or .docx (spec 3 §2, §5). */
export const ASSESSMENT_MAX_FILES = 1;
export const ASSESSMENT_EXTENSIONS = ["doc", "docx"] as const;
/** Under this many words the error count is skipped (too short to count per 100 words). */
export const MIN_WORDS_TO_COUNT = 100;
/** The editing-services price shown in next steps: 75 in the user's currency (spec 3 §2, §9). */
export const EDITING_PRICE_MAJOR = 75;
/** Percentile chart: x axis 0–100 step 25, a marker at 95 and at the user's percentile (spec 3 §9). */
export const PERCENTILE_TICKS = [0, 25, 50, 75, 100] as const;
export const PERCENTILE_HIGHLIGHT = 95;
/** The terms box of the upload_files_ui variant (spec 3 §2, §5): the page's form must carry it ticked ("true"). */
export const ASSESSMENT_TERMS_FIELD = "agreeToTerms";
