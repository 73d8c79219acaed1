// Reference data: currencies and rates, localisations, manuscript languages.
export const CURRENCIES = [
  { iso_code: "USD", short_name: "USD", name: "US Dollar", sign: "$", num_decimals: 2, selectable: true, sort_order: 1, rate: "1" },
  { iso_code: "EUR", short_name: "EUR", name: "Euro", sign: "€", num_decimals: 2, selectable: true, sort_order: 2, rate: "0.92" },
  { iso_code: "GBP", short_name: "GBP", name: "British Pound", sign: "£", num_decimals: 2, selectable: true, sort_order: 3, rate: "0.79" },
  { iso_code: "JPY", short_name: "JPY", name: "Japanese Yen", sign: "¥", num_decimals: 0, selectable: true, sort_order: 4, rate: "150" },
  { iso_code: "BRL", short_name: "BRL", name: "Brazilian Real", sign: "R$", num_decimals: 2, selectable: true, sort_order: 5, rate: "5.6" },
  // Chinese yuan is not selectable except on the China site and for admins (spec 1 §5, spec 2 §9).
  { iso_code: "CNY", short_name: "CNY", name: "Chinese Yuan", sign: "¥", num_decimals: 2, selectable: false, sort_order: 6, rate: "7.2" },
] as const;

/** The date the seeded rates are stated for. */
export const RATES_EFFECTIVE_ON = "2026-01-01";

export const LOCALIZATIONS = [
  {
    identity: "US",
    name: "United States (global)",
    is_default: true,
    time_zone: "America/New_York",
    default_currency: "USD",
    default_lang: "en",
    allows_fapiao_processing_after_payment: false,
    tax_types: [] as string[],
    payment_methods: [3, 6, 9, 1, 4, 26],
  },
  {
    identity: "CN",
    name: "China",
    is_default: false,
    time_zone: "Asia/Shanghai",
    default_currency: "CNY",
    default_lang: "cn",
    allows_fapiao_processing_after_payment: true,
    tax_types: [] as string[],
    payment_methods: [3, 19, 25, 21, 9, 27, 28, 1, 4, 26],
  },
  {
    identity: "BR",
    name: "Brazil",
    is_default: false,
    time_zone: "America/Sao_Paulo",
    default_currency: "BRL",
    default_lang: "br",
    allows_fapiao_processing_after_payment: false,
    tax_types: ["CPF", "CNPJ"],
    payment_methods: [3, 6, 23, 22, 20, 9, 1, 4, 26],
  },
];

/** Manuscript languages. Id 1 is English and id 2 Chinese (spec 2 §9 word-count notices rely on these ids). */
export const LANGUAGES = [
  { id: 1, code: "en", name: "English" },
  { id: 2, code: "zh", name: "Chinese" },
  { id: 3, code: "ja", name: "Japanese" },
  { id: 4, code: "pt", name: "Portuguese" },
  { id: 5, code: "es", name: "Spanish" },
  { id: 6, code: "ko", name: "Korean" },
  { id: 7, code: "fr", name: "French" },
  { id: 8, code: "de", name: "German" },
  { id: 9, code: "it", name: "Italian" },
  { id: 10, code: "ru", name: "Russian" },
  { id: 11, code: "tr", name: "Turkish" },
  { id: 12, code: "ar", name: "Arabic" },
];

export const DEMO_ACCOUNTS = {
  researcher: { email: "researcher@example.com", password: "Researcher#2026", firstName: "Ada", lastName: "Lovelace" },
  staff: { email: "staff@example.com", password: "Staff#2026!", firstName: "Sam", lastName: "Support" },
};
