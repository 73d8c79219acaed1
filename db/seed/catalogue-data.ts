// The starting price list and rules (/work/shared/catalogue.md), as data.
// Staff change the rows afterwards; the seed never overwrites them.
// Amounts: integer USD cents. Rates, multipliers and percentages: decimal strings.

import type { DeliveryTierCode, PriceKind, ServiceType, TurnaroundKind, BundleQuestionType } from "../types-catalogue";

const k = (path: string) => `catalogue:${path}`;

export interface ServiceGroupSeed {
  slug: string;
  serviceType: string;
  columns: 1 | 3 | 4;
}

export const SERVICE_GROUPS: ServiceGroupSeed[] = [
  { slug: "editing", serviceType: "editing", columns: 4 },
  { slug: "translation", serviceType: "translation", columns: 3 },
  { slug: "formatting", serviceType: "formatting", columns: 3 },
  { slug: "figures", serviceType: "figures", columns: 3 },
  { slug: "journalrec", serviceType: "journalrec", columns: 3 },
  { slug: "rework", serviceType: "editing", columns: 1 },
];

export interface ServiceSeed {
  slug: string;
  type: ServiceType;
  group: string;
  /** Key of the description modal (spec 1 §2), when the service has one. */
  description?: string;
  price: {
    kind: PriceKind;
    cents?: number;
    perWordUsd?: string;
    minimumCents?: number;
    multiplier?: string;
    baseSlug?: string;
    freeWith?: string[];
    unit?: "figure" | "table";
  };
  turnaround: { kind: TurnaroundKind; days?: number; upToWords?: number; stepWords?: number; stepDays?: number };
  maxWords?: number;
  sourceLanguageId?: number;
  targetLanguageId?: number;
  rush?: boolean;
  express?: boolean;
  featured?: boolean;
  recommended?: boolean;
}

// Standard editing turnaround: 7 business days up to 6,000 words, +1 per further 3,000.
const editingDays = (days: number) => ({ kind: "steps" as const, days, upToWords: 6000, stepWords: 3000, stepDays: 1 });
// Translation turnaround: 8 business days up to 3,000 words, +1 per further 1,500.
const translationDays = (days: number) => ({ kind: "steps" as const, days, upToWords: 3000, stepWords: 1500, stepDays: 1 });
const fixedDays = (days: number) => ({ kind: "fixed" as const, days });

/** Manuscript languages (ids from db/seed/reference.ts) offered for translation into and out of English. */
const TRANSLATION_LANGUAGES = [
  { code: "pt", id: 4, perWordUsd: "0.14" },
  { code: "es", id: 5, perWordUsd: "0.14" },
  // Chinese is counted in characters.
  { code: "zh", id: 2, perWordUsd: "0.12" },
  { code: "ja", id: 3, perWordUsd: "0.14" },
];

export const SERVICES: ServiceSeed[] = [
  {
    slug: "standard-editing",
    type: "editing",
    group: "editing",
    description: "standard-editing",
    price: { kind: "word_bins", multiplier: "1" },
    turnaround: editingDays(7),
    rush: true,
    express: true,
    featured: true,
  },
  {
    slug: "advanced-editing",
    type: "editing",
    group: "editing",
    description: "advanced-editing",
    price: { kind: "word_bins", multiplier: "1.25" },
    turnaround: editingDays(8),
    rush: true,
    featured: true,
  },
  {
    slug: "premium-editing",
    type: "editing",
    group: "editing",
    description: "unlimited-re-editing",
    price: { kind: "word_bins", multiplier: "1.6" },
    turnaround: editingDays(8),
    rush: true,
    express: true,
    featured: true,
    recommended: true,
  },
  {
    slug: "premium-advanced-editing",
    type: "editing",
    group: "editing",
    description: "research-communication-partner",
    price: { kind: "word_bins", multiplier: "1.9" },
    turnaround: editingDays(9),
    rush: true,
    featured: true,
  },
  {
    slug: "scientific-editing",
    type: "editing",
    group: "editing",
    description: "scientific-editing",
    price: { kind: "word_bins", multiplier: "2.5" },
    turnaround: fixedDays(10),
    maxWords: 12000,
  },
  ...TRANSLATION_LANGUAGES.map((l): ServiceSeed => ({
    slug: `standard-translation-${l.code}-en`,
    type: "translation",
    group: "translation",
    description: "translation",
    price: { kind: "per_word", perWordUsd: l.perWordUsd, minimumCents: 15000 },
    turnaround: translationDays(8),
    sourceLanguageId: l.id,
    targetLanguageId: 1,
    rush: true,
    featured: true,
  })),
  ...TRANSLATION_LANGUAGES.map((l): ServiceSeed => ({
    slug: `premium-translation-${l.code}-en`,
    type: "translation",
    group: "translation",
    description: "translation",
    price: { kind: "of_base", multiplier: "1.4", baseSlug: `standard-translation-${l.code}-en` },
    turnaround: translationDays(10),
    sourceLanguageId: l.id,
    targetLanguageId: 1,
    rush: true,
    featured: true,
    recommended: true,
  })),
  ...TRANSLATION_LANGUAGES.map((l): ServiceSeed => ({
    slug: `reverse-translation-en-${l.code}`,
    type: "translation",
    group: "translation",
    description: "translation",
    price: { kind: "per_word", perWordUsd: "0.10", minimumCents: 15000 },
    turnaround: translationDays(8),
    sourceLanguageId: 1,
    targetLanguageId: l.id,
    rush: true,
  })),
  {
    slug: "manuscript-formatting",
    type: "other",
    group: "formatting",
    description: "formatting",
    price: { kind: "fixed", cents: 9500 },
    turnaround: fixedDays(3),
    featured: true,
  },
  {
    slug: "figure-formatting",
    type: "other",
    group: "formatting",
    description: "figure-table-formatting",
    price: { kind: "per_unit", cents: 2500, unit: "figure" },
    turnaround: fixedDays(3),
    featured: true,
  },
  {
    slug: "table-formatting",
    type: "other",
    group: "formatting",
    description: "figure-table-formatting",
    price: { kind: "per_unit", cents: 1500, unit: "table" },
    turnaround: fixedDays(3),
  },
  {
    slug: "custom-illustration",
    type: "other",
    group: "figures",
    description: "custom-illustration",
    price: { kind: "fixed", cents: 30000 },
    turnaround: fixedDays(10),
    featured: true,
  },
  {
    slug: "animated-figure",
    type: "other",
    group: "figures",
    description: "animated-figures",
    price: { kind: "fixed", cents: 45000 },
    turnaround: fixedDays(10),
    featured: true,
  },
  {
    slug: "graphical-abstract",
    type: "other",
    group: "figures",
    description: "graphical-abstracts",
    price: { kind: "fixed", cents: 25000 },
    turnaround: fixedDays(7),
    featured: true,
  },
  {
    slug: "journal-recommendation",
    type: "other",
    group: "journalrec",
    description: "journal-recommendation",
    price: { kind: "fixed", cents: 6000 },
    turnaround: fixedDays(3),
    featured: true,
  },
  {
    slug: "plagiarism-check",
    type: "other",
    group: "journalrec",
    description: "plagiarism-check",
    price: { kind: "fixed", cents: 4500 },
    turnaround: fixedDays(2),
    featured: true,
  },
  {
    slug: "cover-letter",
    type: "other",
    group: "journalrec",
    description: "cover-letter",
    price: { kind: "fixed", cents: 6000 },
    turnaround: fixedDays(3),
  },
  {
    slug: "automated-re-editing",
    type: "editing",
    group: "rework",
    description: "digital-editing",
    price: { kind: "fixed", cents: 4000, freeWith: ["premium-editing", "premium-advanced-editing"] },
    turnaround: fixedDays(2),
  },
  // Touch-ups cost 30 % of the original service; touch-up translation always names its original.
  {
    slug: "touch-up-editing",
    type: "editing",
    group: "rework",
    description: "guarantee",
    price: { kind: "of_base", multiplier: "0.3", baseSlug: "standard-editing" },
    turnaround: fixedDays(3),
  },
  {
    slug: "touch-up-translation",
    type: "translation",
    group: "rework",
    description: "guarantee",
    price: { kind: "of_base", multiplier: "0.3" },
    turnaround: fixedDays(3),
  },
  {
    slug: "touch-up-formatting",
    type: "other",
    group: "rework",
    description: "guarantee",
    price: { kind: "of_base", multiplier: "0.3", baseSlug: "manuscript-formatting" },
    turnaround: fixedDays(3),
  },
  {
    slug: "book-editing",
    type: "editing",
    group: "editing",
    description: "book-editing",
    price: { kind: "per_word", perWordUsd: "0.035" },
    turnaround: { kind: "quote" },
  },
];

export interface WordBinSeed {
  name: string;
  minWords: number;
  maxWords: number | null;
  cents?: number;
  perWordUsd?: string;
}

export const WORD_BINS: WordBinSeed[] = [
  { name: "1-1500", minWords: 1, maxWords: 1500, cents: 9500 },
  { name: "1501-3000", minWords: 1501, maxWords: 3000, cents: 15000 },
  { name: "3001-6000", minWords: 3001, maxWords: 6000, cents: 26000 },
  { name: "6001-9000", minWords: 6001, maxWords: 9000, cents: 37000 },
  { name: "9001-12000", minWords: 9001, maxWords: 12000, cents: 48000 },
  { name: "12001+", minWords: 12001, maxWords: null, perWordUsd: "0.04" },
];

export const DELIVERY_TIERS: { code: DeliveryTierCode; multiplier: string; turnaroundDays: number | null }[] = [
  { code: "standard", multiplier: "1", turnaroundDays: null },
  // About 4 business days (plus the service's per-word extension beyond its base words).
  { code: "rush", multiplier: "1.35", turnaroundDays: 4 },
  { code: "express", multiplier: "1.6", turnaroundDays: 2 },
];

const EDITING_RUSH = ["standard-editing", "advanced-editing", "premium-editing", "premium-advanced-editing"];
const TRANSLATION_RUSH = SERVICES.filter((s) => s.type === "translation" && s.rush).map((s) => s.slug);

export interface RushRuleSeed {
  name: string;
  startsOn: string | null;
  endsOn: string | null;
  grandparentAreaOfStudyId: number | null;
  lower: number | null;
  upper: number | null;
  loyaltyLevels: string[];
  serviceSlugs: string[];
}

// Rush stops where the custom-deadline notices start (40,000 words for editing, 18,000 for translation).
export const RUSH_RULES: RushRuleSeed[] = [
  {
    name: "Editing rush",
    startsOn: "2026-01-01",
    endsOn: null,
    grandparentAreaOfStudyId: null,
    lower: null,
    upper: 39999,
    loyaltyLevels: [],
    serviceSlugs: EDITING_RUSH,
  },
  {
    name: "Translation rush",
    startsOn: "2026-01-01",
    endsOn: null,
    grandparentAreaOfStudyId: null,
    lower: null,
    upper: 17999,
    loyaltyLevels: [],
    serviceSlugs: TRANSLATION_RUSH,
  },
];

export interface BundleSeed {
  slug: string;
  primary: string;
  addOns: string[];
  discountPercent: string;
  deadlines: Record<string, number>;
  learnMoreTerms: { serviceSlug: string; key: string }[];
}

const term = (serviceSlug: string) => ({ serviceSlug, key: k(`bundles.terms.${serviceSlug}`) });

export const BUNDLES: BundleSeed[] = [
  {
    slug: "publication-ready",
    primary: "premium-editing",
    addOns: ["manuscript-formatting", "journal-recommendation"],
    discountPercent: "10",
    deadlines: { "14": 10, "17": 12, "20": 14 },
    learnMoreTerms: [term("premium-editing"), term("journal-recommendation"), term("plagiarism-check")],
  },
  {
    slug: "figure-ready",
    primary: "standard-editing",
    addOns: ["figure-formatting", "table-formatting"],
    discountPercent: "8",
    deadlines: { "10": 8, "13": 10, "16": 12 },
    learnMoreTerms: [term("figure-formatting"), term("table-formatting"), term("plagiarism-check")],
  },
  {
    slug: "integrity-ready",
    primary: "standard-editing",
    addOns: ["plagiarism-check", "cover-letter"],
    discountPercent: "5",
    deadlines: { "12": 9, "15": 11 },
    learnMoreTerms: [term("plagiarism-check"), term("cover-letter")],
  },
];

export interface BundleQuestionSeed {
  slug: string;
  type: BundleQuestionType;
  required: boolean;
  serviceSlug?: string;
  requiredWith?: string;
  choices?: { choice: string; bundles: string[] }[];
}

export const BUNDLE_QUESTIONS: BundleQuestionSeed[] = [
  {
    slug: "goals",
    type: "multiple-choice",
    required: true,
    choices: [
      { choice: "improve-language", bundles: ["publication-ready", "figure-ready", "integrity-ready"] },
      { choice: "prepare-submission", bundles: ["publication-ready", "integrity-ready"] },
      { choice: "polish-figures", bundles: ["figure-ready"] },
      { choice: "choose-journal", bundles: ["publication-ready"] },
    ],
  },
  { slug: "figures", type: "toggle-type", required: false, serviceSlug: "figure-formatting" },
  { slug: "tables", type: "toggle-type", required: false, serviceSlug: "table-formatting" },
  // Tables are formatted to the target journal's style, so the journal is needed then.
  { slug: "journal", type: "journal-select", required: false, requiredWith: "tables" },
];

export interface PromoCodeSeed {
  code: string;
  percentOff?: string;
  amountOffCents?: number;
  startsAt?: string;
  endsAt?: string;
  maxUses?: number;
}

/** Demo promotional codes (amounts in USD cents, converted to the order's currency). */
export const PROMO_CODES: PromoCodeSeed[] = [
  { code: "WELCOME10", percentOff: "10" },
  { code: "SAVE50", amountOffCents: 5000 },
  { code: "SPRING5", percentOff: "5", startsAt: "2026-03-01T00:00:00Z", endsAt: "2026-06-01T00:00:00Z" },
  { code: "EXPIRED20", percentOff: "20", startsAt: "2025-01-01T00:00:00Z", endsAt: "2026-01-01T00:00:00Z" },
  { code: "FIRST100", percentOff: "15", maxUses: 100 },
];

export const PREFERRED_GROUPS = [
  { code: "UNI-DEMO", name: "Demo University", discount: "10", percentageDiscount: true },
  { code: "LAB-DEMO", name: "Demo Research Lab", discount: "2500", percentageDiscount: false },
  // The two free-trial groups of the newer document platform (issue 25, spec 3 §4, ADR 077): no membership widget.
  { code: "CURIE-FREE-TRIAL", name: "Curie free trial", discount: "10", percentageDiscount: true, membershipDisplayed: false },
  { code: "CURIE-FREE-TRIAL-CN", name: "Curie free trial China", discount: "10", percentageDiscount: true, membershipDisplayed: false },
];

export const SERVICE_DISCOUNTS = [
  {
    code: "re-edit",
    kind: "re-edit" as const,
    descriptionKey: k("discounts.re-edit"),
    serviceSlug: null,
    requiresServiceType: null,
    percentOff: "50",
  },
  {
    code: "plagiarism-check-with-editing",
    kind: "service" as const,
    descriptionKey: k("discounts.service"),
    serviceSlug: "plagiarism-check",
    requiresServiceType: "editing" as const,
    percentOff: "20",
  },
];

export const keys = {
  service: (slug: string) => k(`services.${slug}`),
  description: (name: string) => k(`descriptions.${name}`),
  group: (slug: string) => k(`groups.${slug}`),
  tier: (code: string) => k(`tiers.${code}`),
  bundle: (slug: string) => k(`bundles.${slug}.name`),
  bundleDescription: (slug: string) => k(`bundles.${slug}.description`),
  question: (slug: string) => k(`bundleQuestions.${slug}.term`),
  promo: () => k("discounts.promotional-code"),
};
