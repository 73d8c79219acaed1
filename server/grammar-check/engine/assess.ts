// assessText: the one call the domain makes (ADR 069). Dialect from the text, lints from the child, report here.
import type { EngineReport, PercentilePoint, ReferenceSet } from "../types";
import { scienceVocabulary, storedReference } from "./data";
import { detectDialect } from "./dialect";
import { lintInHost, stopHost } from "./host";
import { buildReport, countTextWords } from "./report";
import { buildCurve } from "./score";

/** harper.js version and the filter/score revision: stored with the reference so a recalibration is traceable. */
export const ENGINE_VERSION = "harper.js@2.10.0 filter-3 score-1";

/** Once the portal has this many completed assessments, the percentile compares with them instead of Brown. */
export const PORTAL_REFERENCE_MIN = 200;

/** Input the engine refuses (no words at all): the job turns it into a failed assessment, not a retry. */
export class EngineInputError extends Error {
  readonly code = "no-words";
  constructor() {
    super("the text has no words to check");
    this.name = "EngineInputError";
  }
}

/** The language-quality report of a text (lints in the child process; one call at a time). */
export async function assessText(text: string): Promise<EngineReport> {
  if (typeof text !== "string" || countTextWords(text) === 0) throw new EngineInputError();
  const dialect = detectDialect(text);
  const lints = await lintInHost(text, dialect);
  return buildReport(text, lints, dialect, scienceVocabulary());
}

const WARM_TEXT =
  "The results of present observations of the thermal radio emission of the moon are consistent with a low " +
  "thermal conductivity of the surface layer. Their going to measure it agian , and the the data shows it.";

/** Starts the child and lints a short text in both dialects (harper's first call is several times slower). */
export async function warmEngine(): Promise<void> {
  await lintInHost(WARM_TEXT, "american");
  await lintInHost(WARM_TEXT, "british");
}

/** Kills the child process (a call in flight rejects). Safe to call when nothing runs. */
export function stopEngine(): void {
  stopHost();
}

/** The stored Brown genre J reference: its curve and the reference set the report names. */
export function referenceCurve(): { curve: PercentilePoint[]; reference: ReferenceSet } {
  const stored = storedReference();
  return {
    curve: stored.curve.length ? stored.curve : buildCurve(stored.texts.map((t) => t.score)),
    reference: { source: "brown-learned", documents: stored.count },
  };
}
