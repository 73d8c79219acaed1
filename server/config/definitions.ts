// Application config values (spec 1 §3) and every feature flag the specs name.
// These are the seed defaults; the database holds the live values, which staff
// can change without a release and the environment can override.

import type { LoyaltyLevelConfig } from "#common/rewards/levels";

/** The seeded loyalty levels (ADR 075): points and orders needed, the tier, and the benefits each grants once. */
const DEFAULT_LOYALTY_LEVELS: LoyaltyLevelConfig[] = [
  { identity: "level0", name: "level0", tier: "welcome", minimumPointsNeeded: 0, minimumOrdersNeeded: 0, promoCodes: [], educational: [] },
  {
    identity: "level1",
    name: "level1",
    tier: "welcome",
    minimumPointsNeeded: 200,
    minimumOrdersNeeded: 1,
    promoCodes: [{ key: "level1-percent", percentOff: 5, validDays: 180 }],
    educational: [{ key: "grammar-check", path: "researcher/grammar-check" }],
  },
  {
    identity: "level2",
    name: "level2",
    tier: "premier",
    minimumPointsNeeded: 1000,
    minimumOrdersNeeded: 2,
    promoCodes: [{ key: "level2-amount", amountOffUsdCents: 2500, validDays: 180 }],
    educational: [{ key: "digital-editing", path: "researcher/digital-editing" }],
  },
  {
    identity: "level3",
    name: "level3",
    tier: "premier",
    minimumPointsNeeded: 2500,
    minimumOrdersNeeded: 3,
    promoCodes: [{ key: "level3-percent", percentOff: 10, validDays: 365 }],
    educational: [],
  },
  {
    identity: "level4",
    name: "level4",
    tier: "premier",
    minimumPointsNeeded: 5000,
    minimumOrdersNeeded: 5,
    promoCodes: [{ key: "level4-amount", amountOffUsdCents: 7500, validDays: 365 }],
    educational: [{ key: "support", path: "support" }],
  },
  {
    identity: "level5",
    name: "level5",
    tier: "elite",
    minimumPointsNeeded: 10000,
    minimumOrdersNeeded: 8,
    promoCodes: [{ key: "level5-percent", percentOff: 15, validDays: 365 }],
    educational: [],
  },
  {
    identity: "level6",
    name: "level6",
    tier: "elite",
    minimumPointsNeeded: 20000,
    minimumOrdersNeeded: 12,
    promoCodes: [{ key: "level6-percent", percentOff: 20, validDays: 365 }],
    educational: [],
  },
];

/**
 * Every rate limit the portal knows, with its default (README "Rate limits"). A configured `rateLimits` object
 * (stored, or `CONFIG_RATE_LIMITS`) is merged over these: a key it does not name keeps its default, and a key
 * not listed here, or a value that is not a positive whole number, is refused at start (issue 22 item 3).
 */
export const RATE_LIMIT_DEFAULTS = {
  // Failed sign-ins per client address a minute (successes do not count: a campus NAT, ADR 082).
  signInPerMinute: 30,
  signInFailuresPerAccountAddress: 10,
  signInFailuresPerAccount: 20,
  registrationsPerHour: 20,
  emailChecksPerHour: 30,
  resetRequestsPerHour: 10,
  resetAttemptsPerHour: 30,
  resetFailuresPerAccount: 10,
  mailPerRecipientPerHour: 10,
  mailPerUserPerHour: 20,
  quotesPer10Minutes: 20,
  quotePdfsPer10Minutes: 60,
  wechatStartsPer10Minutes: 60,
  wechatPollsPerCode: 45,
  wechatPollsPerMinute: 600,
  certificateLookupsPer10Minutes: 30,
  // Anonymous grammar checks (issue 23 item 4, ADR 070), counted before the upload is read.
  grammarChecksPerAddressPerHour: 20,
  grammarChecksPerBrowserPerHour: 10,
  // Preferred group joins (issue 25, ADR 077): codes are not enumerable; every attempt counts, per user and address.
  groupJoinsPerUserPerHour: 10,
  groupJoinsPerAddressPerHour: 30,
} as const;
export type RateLimitKey = keyof typeof RATE_LIMIT_DEFAULTS;

export const CONFIG_DEFAULTS = {
  localAuthEnabled: { value: true, description: "Sign-in with e-mail and password is offered." },
  foundUsOptions: {
    value: ["search-engine", "colleague", "journal", "university", "conference", "social-media", "email", "other"],
    description: "Choices of the 'How did you find us?' question.",
  },
  referralAmount: { value: 40, description: "Referral credit in USD given to both sides of a referral." },
  referralPoints: {
    value: 100,
    description: "Reward points the referrer earns when a referred colleague's first order is paid and completed.",
  },
  referralCreditDays: { value: 365, description: "Days a referral credit may be spent before it expires." },
  orderFormVersion: { value: 1, description: "Version of the order form the client must send." },
  // Loyalty (issue 25 item 1, spec 3 §3 "Loyalty", ADR 075): the levels and how many points a paid order earns.
  loyaltyLevels: {
    value: DEFAULT_LOYALTY_LEVELS as LoyaltyLevelConfig[],
    description:
      "Loyalty levels level0…level6: name (rewards:levels.<name>), tier (welcome, premier, elite), minimumPointsNeeded, minimumOrdersNeeded, and the benefits granted once when the level is reached: promoCodes [{key, percentOff | amountOffUsdCents, validDays}] and educational [{key, path}].",
  },
  rewardPointsPerUsd: {
    value: 1,
    description:
      "Reward points per US dollar of an order paid in full: the invoice's amount is converted to USD at the invoice's rate (#common/money convertMinor), so every currency earns the same; rounded down to whole points.",
  },
  marketingOptIn: { value: true, description: "Registration shows the marketing opt-in checkbox." },
  allowLanguageSelection: { value: true, description: "Registration lets the user choose the site language." },
  authenticationProviders: {
    value: [] as { id: string; name: string; icon: string; supportedLanguages: string[]; supportedLocalizations: string[] }[],
    description: "Social sign-in providers (id, name, icon, supported languages and localisations).",
  },
  enforcesDataProtection: { value: false, description: "Registration requires the data-protection consent." },
  institutionInfoMandatory: { value: false, description: "Institution is required at registration." },
  links: {
    value: {
      customQuote: "/support",
      header: [] as { key: string; url: string }[],
      socialMedia: [] as { key: string; url: string }[],
      qr: "",
      footer: [
        { key: "footer.terms", url: "/terms" },
        { key: "footer.privacy", url: "/privacy" },
        { key: "footer.support", url: "/support" },
      ],
    },
    description: "Links shown in the header, footer and custom-quote notice.",
  },
  siteLanguages: { value: ["en", "cn", "jp", "br", "es"], description: "Site languages offered in the language switcher." },
  upsells: { value: { figures: true, formatting: true, journalRec: true }, description: "Upsell panels shown in the order form." },
  website: { value: "http://127.0.0.1:3000", description: "Public address of the portal." },
  subNavigation: { value: [] as string[], description: "Extra sub-navigation entries." },
  fileAlertsForType: { value: {} as Record<string, string>, description: "Notices shown for uploaded file types." },
  reeditServiceMap: { value: {} as Record<string, string>, description: "Service that re-edits each service." },
  captchaSiteKey: { value: "", description: "Site key of the self-hosted captcha (empty: no captcha)." },
  adminDomain: { value: "", description: "Host of the staff area, when separate." },
  allowedFileTypes: {
    value: [
      "doc",
      "docx",
      "pdf",
      "txt",
      "rtf",
      "odt",
      "tex",
      "zip",
      "xls",
      "xlsx",
      "ppt",
      "pptx",
      "jpg",
      "jpeg",
      "png",
      "tif",
      "tiff",
      "eps",
      "svg",
    ],
    description: "File extensions accepted by uploads.",
  },
  bankDetails: {
    // One account per currency an invoice can be in, so a researcher pays in the currency they were billed in
    // (issue 9 §4). These are the seeded demonstration accounts; staff set the company's own.
    value: {
      USD: {
        beneficiary: "Researcher Services Ltd",
        bankName: "Harbour Federal Bank, Durham NC, USA",
        account: "0047 1926 5530",
        swift: "HFBKUS3D",
      },
      EUR: {
        beneficiary: "Researcher Services Ltd",
        bankName: "Nordhafen Handelsbank AG, Hamburg",
        account: "DE27 2005 0550 1234 5678 90",
        swift: "NHHBDEHH",
      },
      GBP: {
        beneficiary: "Researcher Services Ltd",
        bankName: "Thameside Bank plc, London",
        account: "20-45-77 41239876",
        swift: "THSBGB2L",
      },
      JPY: { beneficiary: "Researcher Services Ltd", bankName: "さくら港銀行 東京支店", account: "普通 3141592", swift: "SMNBJPJT" },
      CNY: {
        beneficiary: "瑞思科研服务（北京）有限公司",
        bankName: "北京华信银行 海淀支行",
        account: "1109 2837 4650 1122",
        swift: "HXBKCNBJ",
      },
      BRL: {
        beneficiary: "Researcher Services Brasil Ltda.",
        bankName: "Banco Paulista de Comércio, agência 0412",
        account: "04123-7",
        swift: "BPCOBRSP",
      },
    } as Record<string, { beneficiary: string; bankName: string; account: string; swift: string }>,
    description: "Bank account for bank-transfer invoices, by invoice currency (USD is the fallback).",
  },
  maxUploadFileBytes: { value: 52428800, description: "Largest accepted upload, in bytes." },
  maxUploadFiles: { value: 20, description: "Most files in one upload request." },
  // Storage quotas (issue 10 §6); an upload over any of them is refused with storage-quota-exceeded (413).
  uploadQuotaUserBytes: { value: 2147483648, description: "Most bytes of uploaded files one signed-in user may keep." },
  uploadQuotaAnonymousBytes: {
    value: 314572800,
    description:
      "Most bytes of uploaded files one anonymous visitor may keep: per draft, and for all drafts of one address (IPv6: its /64).",
  },
  uploadQuotaAnonymousDailyBytes: {
    value: 209715200,
    description: "Most bytes anonymous visitors of one address (IPv6: its /64) may upload in 24 hours, files removed since included.",
  },
  uploadQuotaOrderFormBytes: { value: 1073741824, description: "Most bytes of uploaded files on one order form." },
  uploadQuotaTotalBytes: { value: 214748364800, description: "Most bytes of uploaded files the portal keeps in all." },
  allowsServiceBundles: { value: true, description: "The order form offers service bundles." },
  companyShortName: { value: "Researcher Services", description: "Short company name used in page titles and documents." },
  companyFoundedYear: { value: 2004, description: "Year the company age text is computed from." },
  projectEnvironmentName: { value: "local", description: "Name of this environment, shown to staff." },
  hideRushRules: { value: false, description: "Hide the rush rules notice in the order form." },
  rushOnlyServices: {
    value: [] as string[],
    description:
      "Services (slug or identity) whose only delivery option is rush: choosing one preselects rush delivery (spec 1 §4 'Service selection'; ADR 065).",
  },
  allowsDigitalEditing: { value: true, description: "The digital editing area is available." },
  allowsDigitalTranslations: { value: true, description: "The digital translation area is available." },
  allowsAnonymousLanguageAssessment: { value: true, description: "Anonymous visitors may use the grammar check." },
  showPreprintPromotion: { value: true, description: "Order details show the preprint promotion (en and cn only)." },
  localizationHosts: {
    value: {} as Record<string, string>,
    description:
      'Host of each localisation\'s own site, by identity (e.g. {"CN": "cn.example.com"}). Empty (the default): one address serves every localisation, so there is no mismatch banner and no redirect to another site.',
  },
  allowedRedirectHosts: {
    value: [] as string[],
    description: "Hosts (besides the localisations' own sites) that a sign-in redirect may lead to.",
  },
  rateLimits: {
    value: RATE_LIMIT_DEFAULTS as Record<RateLimitKey, number>,
    description: "Rate limits per client address (sign-in also per account).",
  },
  rubriqExternalUrl: { value: "", description: "External address the rubriq area leaves for when rubriq_ui_hosted_on_new_site is on." },
  // Invoices and their documents (issue 12 §5, ADR 037): the entity that bills, printed on invoices, statements
  // of delivery and receipts, by localisation identity ("default" for any other). Seeded demonstration values.
  invoiceCompanyDetails: {
    value: {
      default: {
        name: "Researcher Services Ltd",
        address: ["100 Main Street, Suite 300", "Durham, NC 27701", "United States"],
        email: "billing@researcher-services.example",
        phone: "+1 919 555 0100",
        taxId: "EIN 12-3456789",
      },
      CN: {
        name: "瑞思科研服务（北京）有限公司",
        address: ["北京市海淀区中关村大街 1 号", "100080"],
        email: "billing-cn@researcher-services.example",
        phone: "+86 10 5555 0100",
        taxId: "统一社会信用代码 91110108MA01ABCD3X",
      },
      BR: {
        name: "Researcher Services Brasil Ltda.",
        address: ["Av. Paulista, 1000, conj. 101", "São Paulo - SP, 01310-100", "Brasil"],
        email: "faturamento@researcher-services.example",
        phone: "+55 11 5555 0100",
        taxId: "CNPJ 12.345.678/0001-95",
      },
    } as Record<string, { name: string; address: string[]; email: string; phone: string; taxId: string }>,
    description: 'Company details printed on invoices, statements of delivery and receipts, by localisation ("default" otherwise).',
  },
  // Prepayments and credits (issue 13, ADR 039).
  prepayMinimums: {
    value: {} as Record<string, number>,
    description: 'Smallest prepayment by currency, in major units (e.g. {"JPY": 10000}); a currency not listed uses 100 (spec 2 §5).',
  },
  prepayBankTransfer: {
    value: false,
    description:
      "The prepay form lets bank transfer be chosen (the retainer invoice issued unpaid, staff record the transfer). Off: shown disabled, as spec 2 §6 and spec 3 §6 say (ADR 067).",
  },
  creditValidityDays: { value: 365, description: "Days a granted credit can be spent before it expires." },
  fapiaoCancelWindowDays: { value: 365, description: "Days after the payment during which a researcher may cancel an issued fapiao." },
};

export type ConfigKey = keyof typeof CONFIG_DEFAULTS;
export type ConfigValues = { [K in ConfigKey]: (typeof CONFIG_DEFAULTS)[K]["value"] };

export const FEATURE_FLAGS = {
  wechat_sso: { enabled: true, description: "WeChat QR sign-in on the sign-in page." },
  new_login: { enabled: true, description: "Newer sign-in and forgot-password layout." },
  npgle_snid: { enabled: false, description: "Show the 'snid' social sign-in provider." },
  upload_files_ui: { enabled: false, description: "Alternative upload UI in the order form and grammar check." },
  service_bundles: { enabled: true, description: "Service bundles step in the order form." },
  show_express_service_options: { enabled: true, description: "Offer express delivery (4,000-5,999 words, Standard or Premium Editing)." },
  order_form_language_detection: { enabled: true, description: "Detect manuscript language and word count from uploads." },
  featured_editing_service_component: { enabled: true, description: "Featured editing services layout in service selection." },
  curie_is_launched: { enabled: false, description: "The home area of the newer document platform is open." },
  curie_to_rubriq_redirect: { enabled: true, description: "/curie/* redirects to the same path under /rubriq." },
  rubriq_ui_hosted_on_new_site: { enabled: false, description: "/rubriq/* leaves for the external rubriq site." },
  rubriq_china_cart_purchase: { enabled: false, description: "China cart purchases for rubriq plans." },
  prepay_enabled: { enabled: true, description: "Prepayments can be made." },
  fapiao_enabled: { enabled: true, description: "Fapiao (Chinese tax invoices) can be requested." },
  captcha: { enabled: false, description: "Captcha for anonymous grammar checks." },
  chinese_to_english_digital_translation: { enabled: true, description: "Chinese-to-English digital translation is offered." },
  live_chat: { enabled: false, description: "Live-chat widget on the China site (self-hosted only; no third-party origin)." },
} as const;

export type FlagName = keyof typeof FEATURE_FLAGS;
export type FeatureFlags = Record<FlagName, boolean>;
