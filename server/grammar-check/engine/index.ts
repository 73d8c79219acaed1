// The grammar engine (ADR 069): what the grammar-check domain imports. harper.js itself is loaded only by the
// child process (harper-host.mjs), never by this module or anything the web bundle reaches.
export { assessText, warmEngine, stopEngine, referenceCurve, EngineInputError, ENGINE_VERSION, PORTAL_REFERENCE_MIN } from "./assess";
export { EngineFailure, hostStats, HOST_LIMITS } from "./host";
export { buildCurve, percentileOf, scoreFromDensity, weightedDensity, SCORE_HALF_DENSITY } from "./score";
export { ENGINE_ISSUE_LIMIT } from "./report";
export { KIND_CATEGORY, CATEGORY_WEIGHTS, HARPER_KINDS } from "./categories";
export { detectDialect } from "./dialect";
export { safeSuggestions, applySuggestions, selectSafe, WORD_CHOICE_SETS, type SafeSuggestion } from "./suggest";
