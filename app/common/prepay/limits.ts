// The prepay limits without the schemas (./schemas.ts): what the prepay page needs in the browser.
/** Typed amounts are major units ("500", "1250.50"): longer than this is not an amount. */
export const PREPAY_AMOUNT_MAX_LENGTH = 16;
/** The largest prepayment in major units: a typo of many zeros is refused, not charged. */
export const PREPAY_AMOUNT_MAX_MAJOR = 1_000_000;
/** Prepayments and credits the page lists before 'Show all' (spec 2 §9). */
export const PREPAY_LIST_SIZE = 5;
