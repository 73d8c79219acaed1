// Digital editing and digital translation: the fixed facts (spec 3 §3, §4, §5, §9; issue 24). Isomorphic: the
// engine, the domain, the API and the pages read the same table. Prices are list prices in USD minor units;
// the domain converts them into the researcher's currency with #common/money (convertMinor) and the kernel's
// rates, rounded up to a whole major unit (a price list, not a conversion to the cent).

/** Digital file status (spec 3 §4): processing grey with a spinner, completed green, failed red. */
export const DIGITAL_STATUSES = ["processing", "completed", "failed"] as const;
export type DigitalStatus = (typeof DIGITAL_STATUSES)[number];

/** The list's page size (spec 3 §9). */
export const DIGITAL_PAGE_SIZE = 30;
/** After a success return from payment the purchase is polled every 10 s (spec 3 §4, §9). */
export const PURCHASE_POLL_SECONDS = 10;
/** A list with processing items refreshes itself (spec 3 §4: interval not shown; our choice, ADR). */
export const DIGITAL_POLL_SECONDS = 15;

/** styleOfEnglish (spec 3 §3, §5): the stored and posted values. */
export const STYLES_OF_ENGLISH = ["British English", "American English"] as const;
export type StyleOfEnglish = (typeof STYLES_OF_ENGLISH)[number];
export const dialectOfStyle = (s: StyleOfEnglish): "british" | "american" => (s === "British English" ? "british" : "american");

/** Files a digital edit or translation accepts (spec 3 §5: exactly one, .doc or .docx). */
export const DIGITAL_EXTENSIONS = ["doc", "docx"] as const;

/** The subscription (spec 3 §9): annual list price, 30 % off, valid one year from its start. */
export const SUBSCRIPTION_ANNUAL_LIST_USD_CENTS = 20000;
export const SUBSCRIPTION_DISCOUNT_PERCENT = 30;
export const SUBSCRIPTION_MONTHS = 12;

/** Translation language pairs (spec 3 §9), all into English. zh_CN is behind flag chinese_to_english_digital_translation. */
export const TRANSLATION_LANGUAGES = ["es_ES", "pt_BR", "zh_CN"] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];
export const CHINESE_LANGUAGE: TranslationLanguage = "zh_CN";
/** Source language code of each pair (ISO 639-1), for the engine. */
export const SOURCE_CODE: Readonly<Record<TranslationLanguage, "es" | "pt" | "zh">> = { es_ES: "es", pt_BR: "pt", zh_CN: "zh" };

/** Site language → locale code (spec 3 §9 "Language code mapping"); default en_US. */
export const SITE_LOCALE_CODE: Readonly<Record<string, string>> = { br: "pt_BR", cn: "zh_CN", es: "es_ES", jp: "ja_JP" };
export const localeCodeOf = (lang: string): string => SITE_LOCALE_CODE[lang] ?? "en_US";

/** The price of one translation use (USD cents); a package's fullPrice is uses × this (spec 3 §9). */
export const SINGLE_USE_USD_CENTS = 2500;
/** The longest document one use translates (words); more gives digital-translations-word-count-exceeded. */
export const TRANSLATION_WORD_LIMIT = 10000;
/** How long a bought package may be used (months from purchase). */
export const PACKAGE_MONTHS = 12;

/** Translation packages on sale: `price` may be below the full price (uses × single use) as a bulk discount. */
export const TRANSLATION_PACKAGES = [
  { identity: "one-use", uses: 1, priceUsdCents: 2500 },
  { identity: "three-uses", uses: 3, priceUsdCents: 6500 },
  { identity: "five-uses", uses: 5, priceUsdCents: 10000 },
  { identity: "ten-uses", uses: 10, priceUsdCents: 18000 },
] as const;
export type PackageIdentity = (typeof TRANSLATION_PACKAGES)[number]["identity"];

/** Display types (spec 3 §3): what the editing side card and the translation header show. */
export const EDITING_DISPLAY_TYPES = ["subscription-type", "preferred-group-type", "none"] as const;
export type EditingDisplayType = (typeof EDITING_DISPLAY_TYPES)[number];
export const TRANSLATION_DISPLAY_TYPES = ["uses-type", "previous-uploads-type", "none"] as const;
export type TranslationDisplayType = (typeof TRANSLATION_DISPLAY_TYPES)[number];

/** Purchase types. */
export type DigitalPurchaseType = "editing" | "translation";
/** Digital order types (spec 3 §3 "Digital order"). */
export type DigitalOrderType = "editing" | "translation";

/** The form field names the spec gives (spec 3 §3). */
export const FIELDS = {
  editFiles: "digitalEditFiles",
  styleOfEnglish: "styleOfEnglish",
  translationFiles: "digitalTranslationFiles",
  language: "language",
  availablePurchase: "availableDigitalPurchaseIdentity",
} as const;

/**
 * Error codes (the domain's fail()/invalid() keys; the pages translate `digital:errors.<code>`). The spec's own
 * keys are kept verbatim.
 */
export const DIGITAL_ERRORS = {
  styleRequired: "style-of-english-required", // 'Please select your preferred type of English.'
  languageRequired: "language-required", // 'Please make a selection'
  fileRequired: "file-required",
  oneFile: "one-file-only",
  fileType: "filetype-not-allowed",
  subscriptionRequired: "subscription-required",
  noUsesLeft: "no-uses-left",
  wordCountExceeded: "digital-translations-word-count-exceeded",
  languageNotInPackage: "language-not-in-package",
  editFailure: "automated-edit-failure",
  translationFailure: "digital-translation-failure",
  fileArchived: "curie.file-archived",
  acceptTerms: "payment-accept-terms-and-conditions-failure",
  trialSuccess: "free-chinese-digital-translation-credit-success",
  trialError: "free-chinese-digital-translation-credit-error",
} as const;
