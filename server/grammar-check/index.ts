// The grammar check's public face (spec 3 §2–§9, issue 23): other areas and the pages import only this module.
//   store (rows, owners, views) ← curve (the percentile set in use) ← job (the engine in the worker)
//   captcha ← assessments (access, list, report, upload, archive, delete, claim) ← order ('Get Started')
// The engine (./engine) is loaded by the job and the curve only: it stays out of the web bundle's pages.
// The JSON API table (./api) is registered in server/api-tables.ts, not exported here.
export {
  archiveAssessment,
  captchaChallenge,
  claimAssessments,
  createAssessment,
  deleteAssessment,
  getAssessment,
  grammarCheckAccess,
  searchAssessments,
  type CreatedAssessments,
  type GrammarCheckAccess,
} from "./assessments";
export {
  CAPTCHA_TTL_SECONDS,
  newCaptchaChallenge,
  verifyCaptcha,
  type CaptchaChallenge,
  type CaptchaFields,
  type CaptchaOutcome,
} from "./captcha";
export { CURVE_REBUILD_MS, curveInUse, forgetCurve, type CurveInUse } from "./curve";
export { assessDocument, assessDocumentJob, grammarCheckJobs } from "./job";
export { startOrderFromAssessment } from "./order";
// The worker warms the engine at start (harper's first check is several times slower) and stops it on shutdown.
export { stopEngine, warmEngine } from "./engine";
export type {
  AssessmentDetails,
  AssessmentSearch,
  AssessmentView,
  EngineIssue,
  EngineReport,
  PercentilePoint,
  ReferenceSet,
} from "./types";
export { editingPrice } from "./price";
// Automated proofreading (issue 24, ADR 072): the harper suggestions applied without a human.
export { safeSuggestions, applySuggestions, type SafeSuggestion } from "./engine";
