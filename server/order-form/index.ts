// The order form's public face (spec 1 §4–§9): other areas and the pages import only this module.
// One module per concern, with no import cycle:
//   store (rows, owners) ← steps/flow (which steps, pure) ← progress (step context, moving on)
//   price, files ← steps/* (one per step) ← rework ← bundles, promo, referrals, currency, quote, view
// The JSON API table (./api) is registered in server/api-tables.ts, not exported here.
export { PROJECT_TITLE_MAX, WORD_COUNT_MAX } from "#common/order-form/constants";
export {
  OrderFormClosedError,
  claimDrafts,
  createOrderForm,
  currentDraft,
  findOrderForm,
  hasProgress,
  hashDraftKey,
  newDraftKey,
  newOrderFormId,
  ownerOf,
  resetDrafts,
  saveOrderForm,
  type OrderFormPatch,
  type OrderFormRow,
  type Owner,
} from "./store";
export { type FieldErrors, type SaveResult } from "./types";
export {
  STEP_ALIASES,
  advance,
  canOpen,
  currentStepOf,
  stepsOf,
  stepsView,
  type StepContext,
  type StepName,
  type StepView,
  type StepsView,
} from "./steps/flow";
export { advanceFrom, currentStep, saveGoingBack, stepBefore, stepContext, stepsFor } from "./progress";
export { computePrice, priceBase, priceForm, selectionsOf, servicePrice, settleDeliveryTier } from "./price";
export { fileOwner, formFiles, manuscriptDetails } from "./files";
export {
  CUSTOMER_GOALS,
  binServiceOf,
  saveGetStarted,
  saveManuscriptDetails,
  wordBinMismatch,
  type CustomerGoal,
  type GetStartedInput,
  type WordBinMismatch,
} from "./steps/get-started";
export {
  saveDeliveryTier,
  saveServiceQuantity,
  saveServices,
  selectableServices,
  toggleService,
  type ServicesInput,
} from "./steps/services";
export { saveAdditional, upsellSlugs } from "./steps/additional";
export { saveDetails, saveJournal, scientificEditingChosen, type DetailsInput } from "./steps/details";
export { findDuplicate, saveDuplicateChoice } from "./steps/duplicate";
export { answersOf, bundleOffers, chooseBundle, saveBundleAnswers, type BundleOffer } from "./bundles";
export { applyPromoCode, removePromoCode, type PromoResult } from "./promo";
export { applyVoucher, removeVoucher } from "./voucher";
export { REFERRAL_EMAILS_MAX, saveReferralEmails } from "./referrals";
export { chooseVisitorCurrency, saveCurrency } from "./currency";
export { currentDraftOf, openDraft, resetDraftsOf, siteDraftCurrency } from "./drafts";
export { areasOfStudy, manuscriptLanguages, pickerCurrencies } from "./choices";
export {
  REWORK_GROUP,
  REWORK_INSTRUCTIONS_MAX,
  reworkOriginals,
  reworkView,
  reworkableOrder,
  reworkableOrderPort,
  saveReworkBasicDetails,
  startRework,
  type ReworkBasicDetailsInput,
  type ReworkView,
  type ReworkableOrder,
  type ReworkScope,
} from "./rework";
export {
  QUOTE_LIMIT_DEFAULTS,
  QUOTE_PDF_CACHE_SECONDS,
  QUOTE_REUSE_HOURS,
  QUOTE_VALID_DAYS,
  convertQuote,
  emailQuote,
  findQuote,
  generatePriceQuote,
  quotePdf,
  type QuoteResult,
} from "./quote";
export { HIDDEN_DISCOUNT_DESCRIPTIONS, summarize, type OrderSummary } from "./summary";
export { wizardLayout, type WizardLayout } from "./layout";
export { orderFormLoadView, orderFormView } from "./view";
export { serviceCards, servicesStepOf, type ServiceCard, type ServiceGroupCards, type ServicesStep } from "./service-cards";
