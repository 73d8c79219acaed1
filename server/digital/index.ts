// Digital editing and digital translation, the public face (spec 3 §2–§9, issue 24): the pages and other areas
// import only this module. The engines (./edit, ./translate, ./docx: helper A) are loaded by the jobs only.
// The JSON API table (./api) is registered in server/api-tables.ts, not exported here.
export { chineseTrialEligibility, digitalAccess, grantChineseTrial, languagesFor, type DigitalAccess } from "./access";
export {
  archiveDigitalEdit,
  createDigitalEdit,
  digitalEditFile,
  getDigitalEdit,
  loadDigitalEdit,
  searchDigitalEdits,
  startOrderFromDigitalEdit,
} from "./edits";
export {
  archiveDigitalOrder,
  createDigitalOrder,
  digitalOrderFile,
  getDigitalOrder,
  loadDigitalOrders,
  searchDigitalOrders,
} from "./orders";
export {
  digitalPaymentForm,
  payDigitalPurchase,
  purchaseByReceipt,
  submitDigitalPayment,
  type DigitalPaymentForm,
  type DigitalPaymentTarget,
} from "./pay";
export { digitalInvoicePdf } from "./documents";
export { setDigitalEditingTrial } from "./staff";
export { digitalJobs, runDigitalEdit, runDigitalTranslation } from "./jobs";
export { listPrice, offersIn, SUBSCRIPTION_USD_CENTS } from "./offers";
export type {
  AvailablePurchase,
  DigitalDownload,
  DigitalEditLoad,
  DigitalEditView,
  DigitalOrderCreated,
  DigitalOrderLoad,
  DigitalOrderView,
  DigitalPurchaseView,
  Pagination,
} from "./types";
// The survey (helper C, ADR 074).
export { listDigitalSurveyAnswers, submitDigitalSurvey, SURVEY_PAGE_SIZE, type SurveyAnswerView, type SurveySummary } from "./survey";
