// The survey's limits without its schema (./survey.ts): what the survey drawer needs in the browser.
export const SURVEY_COMMENT_MAX = 2000;
export const SURVEY_AREAS = ["digital-editing", "digital-translations"] as const;
