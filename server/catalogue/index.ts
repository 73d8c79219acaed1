// The catalogue and pricing engine (issue 4 part 1; docs/decisions/005-catalogue-and-pricing.md).
// Load the catalogue once (getCatalogue caches it), then price with pure functions.
export { loadCatalogue, getCatalogue, invalidateCatalogue, promoCodeOf, CATALOGUE_CACHE_SECONDS } from "./load";
export {
  priceSelection,
  priceTotal,
  getBinPrice,
  standardPriceUsd,
  bundleTurnaround,
  rateOn,
  toCurrency,
  currencyRate,
  withOwnPromoCodes,
} from "./pricing";
export {
  getBinForWordCount,
  binPriceCents,
  checkPromoCode,
  matchingRushRules,
  rushRuleApplies,
  serviceTurnaroundDays,
  validateQuantity,
  validateWordCount,
  noticeKey,
  errorKey,
  PricingInputError,
  WORD_COUNT_MIN,
  WORD_COUNT_STORED_MAX,
  EXPRESS_MIN_WORDS,
  EXPRESS_MAX_WORDS,
  UNDETERMINED_AREA_ID,
  SCIENTIFIC_EDITING_SLUG,
} from "./rules";
export {
  validateBundleAnswers,
  availableBundles,
  bundleSelections,
  learnMoreTerms,
  type BundleAnswer,
  type BundleAnswers,
} from "./bundles";
export {
  searchAreasOfStudy,
  areaTree,
  getAreaOfStudy,
  AREA_SEARCH_MIN_CHARS,
  AREA_SEARCH_MAX_RESULTS,
  type AreaMatch,
  type AreaNode,
} from "./areas";
export { businessDeadline, localDate, END_OF_BUSINESS } from "./calendar";
export {
  type Bundle,
  type BundleQuestion,
  type BundleQuestionType,
  type Catalogue,
  type CatalogueService,
  type CurrencyInfo,
  type DeliveryTier,
  type DeliveryTierCode,
  type DiscountKind,
  type PreferredGroup,
  type PriceInput,
  type PriceKind,
  type PriceResult,
  type PricedDiscount,
  type PricedLine,
  type PromoCode,
  type RushRule,
  type ServiceDiscount,
  type ServiceGroup,
  type ServiceSelection,
  type ServiceType,
  type TurnaroundKind,
  type WordBin,
} from "./types";
export { searchJournals, JOURNAL_SEARCH_MIN, JOURNAL_SUGGESTIONS, type JournalSuggestion } from "./journals";
