// The group code's limit and the page's outcomes, without the schemas (./schemas.ts): what the browser needs.
/** The longest group code anyone may type (codes are short words: 'UNI-DEMO'). */
export const GROUP_CODE_MAX = 64;

/** The page's `?group=` outcome after a 303: a message code from this closed list, never free text. */
export const GROUP_OUTCOMES = ["joined", "left"] as const;
export type GroupOutcome = (typeof GROUP_OUTCOMES)[number];
export const groupOutcome = (v: string | null | undefined): GroupOutcome | null =>
  (GROUP_OUTCOMES as readonly (string | null | undefined)[]).includes(v) ? (v as GroupOutcome) : null;
