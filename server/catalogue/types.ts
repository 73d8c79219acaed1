// Types of the in-memory catalogue and of the pricing engine's input and output.
// The Catalogue is plain JSON (no Map, no Date) so callers can keep it in Redis.
import type { BundleQuestionType, DeliveryTierCode, PriceKind, ServiceType, TurnaroundKind } from "../../db/types-catalogue";

export type { BundleQuestionType, DeliveryTierCode, PriceKind, ServiceType, TurnaroundKind };

export interface CatalogueService {
  id: number;
  identity: string;
  slug: string;
  type: ServiceType;
  group: string;
  nameKey: string;
  descriptionKey: string | null;
  price: {
    kind: PriceKind;
    /** Fixed or per-unit price, USD cents. */
    cents: number | null;
    /** Per-word rate, millionths of a USD. */
    perWordMicros: number | null;
    minimumCents: number | null;
    /** Multiplier in basis points (10,000 = × 1). */
    multiplierBp: number;
    baseSlug: string | null;
    freeWith: string[];
    unit: "figure" | "table" | null;
    minQuantity: number;
    maxQuantity: number;
  };
  turnaround: {
    kind: TurnaroundKind;
    days: number | null;
    upToWords: number | null;
    stepWords: number | null;
    stepDays: number | null;
  };
  /** Above this word count the service is quote only. */
  maxWords: number | null;
  sourceLanguageId: number | null;
  targetLanguageId: number | null;
  rushEligible: boolean;
  expressEligible: boolean;
  featured: boolean;
  recommended: boolean;
  active: boolean;
  sortOrder: number;
}

export interface ServiceGroup {
  slug: string;
  nameKey: string;
  serviceType: string;
  columns: number;
  sortOrder: number;
}

export interface WordBin {
  id: number;
  name: string;
  minWords: number;
  maxWords: number | null;
  cents: number | null;
  perWordMicros: number | null;
}

export interface DeliveryTier {
  code: DeliveryTierCode;
  nameKey: string;
  multiplierBp: number;
  /** Base business days for eligible services (null: the service's own turnaround). */
  turnaroundDays: number | null;
}

export interface RushRule {
  id: number;
  name: string;
  /** Inclusive local dates (YYYY-MM-DD); null: open. */
  startsOn: string | null;
  endsOn: string | null;
  grandparentAreaOfStudyId: number | null;
  lowerWordCountLimit: number | null;
  upperWordCountLimit: number | null;
  loyaltyLevelIdentities: string[];
  serviceIdentities: string[];
}

export interface Bundle {
  id: number;
  slug: string;
  nameKey: string;
  descriptionKey: string | null;
  primaryServiceSlug: string;
  addOnSlugs: string[];
  discountBp: number;
  /** Timeline (business days) → promised business days; see bundleTurnaround. */
  deadlines: Record<string, number>;
  learnMoreTerms: { serviceSlug: string; key: string }[];
  sortOrder: number;
}

export interface BundleQuestion {
  id: number;
  slug: string;
  term: string;
  type: BundleQuestionType;
  required: boolean;
  serviceSlug: string | null;
  requiredWith: string | null;
  choices: { id: number; choice: string; bundleSlugs: string[] }[];
}

export interface PromoCode {
  code: string;
  descriptionKey: string;
  percentBp: number | null;
  amountUsdCents: number | null;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  timesUsed: number;
}

export interface PreferredGroup {
  code: string;
  name: string;
  percentBp: number | null;
  amountUsdCents: number | null;
}

export interface ServiceDiscount {
  code: string;
  kind: "re-edit" | "service";
  descriptionKey: string;
  serviceSlug: string | null;
  requiresServiceType: ServiceType | null;
  percentBp: number;
  startsAt: string | null;
  endsAt: string | null;
}

export interface CurrencyInfo {
  isoCode: string;
  sign: string;
  numDecimals: number;
  /** Newest first. */
  rates: { effectiveOn: string; rate: string }[];
}

export interface Catalogue {
  loadedAt: string;
  services: CatalogueService[];
  groups: ServiceGroup[];
  bins: WordBin[];
  tiers: Record<DeliveryTierCode, DeliveryTier>;
  rushRules: RushRule[];
  bundles: Bundle[];
  bundleQuestions: BundleQuestion[];
  /** Active codes by upper-case code. */
  promoCodes: Record<string, PromoCode>;
  preferredGroups: Record<string, PreferredGroup>;
  serviceDiscounts: ServiceDiscount[];
  currencies: Record<string, CurrencyInfo>;
  /** Localisation identity → time zone and holidays. */
  calendars: Record<string, { timeZone: string; holidays: string[] }>;
  /** Area of study id → id of its level-1 ancestor (for rush rules). */
  areaGrandparents: Record<string, number>;
}

export interface ServiceSelection {
  serviceSlug?: string;
  serviceId?: number;
  serviceIdentity?: string;
  /** Figures or tables to format (1 to 25). */
  quantity?: number;
  figureCount?: number;
  tableCount?: number;
  /** For touch-ups: the service of the original order (its price is the base). */
  originalServiceSlug?: string;
}

export interface PriceInput {
  currencyIso: string;
  wordCount: number;
  /** Manuscript language (1 English, 2 Chinese, …). */
  languageId: number;
  selections: ServiceSelection[];
  deliveryTier: DeliveryTierCode;
  bundleId?: number | null;
  promoCode?: string | null;
  /** The user's own promo codes (issue 25: earned benefits, a referred colleague's first-order code), by upper-case code. */
  ownPromoCodes?: Record<string, PromoCode>;
  preferredGroupCode?: string | null;
  isReedit?: boolean;
  localization: string;
  areaOfStudyId?: number | null;
  loyaltyLevel?: string | null;
  now: Date;
  flags?: { show_express_service_options?: boolean };
  /** Staff acting as the user: custom-deadline notices are suppressed (spec 2 §6). */
  impersonating?: boolean;
}

export type DiscountKind =
  | "Promotional Code"
  | "Preferred group discount"
  | "Re-edit discount"
  | "Service discount"
  | "Service bundle discount"
  // Spec 2 §5: off the amount payable, after the others (server/vouchers, ADR 038).
  | "Voucher";

export interface PricedDiscount {
  kind: DiscountKind;
  code?: string;
  descriptionKey: string;
  percentBased: boolean;
  /** The percent (e.g. 10 or 12.5) when percentBased, else the amount in minor units. */
  amount: number;
  /** What it takes off this order, in minor units (0 when not applied). */
  appliedAmount: number;
  applied: boolean;
}

export interface PricedLine {
  serviceId: number;
  serviceIdentity: string;
  serviceSlug: string;
  nameKey: string;
  type: ServiceType;
  quantity: number;
  /** The tier this line is delivered in (rush and express change only eligible services). */
  deliveryTier: DeliveryTierCode;
  turnaroundDays: number | null;
  listPrice: number;
  discountAmount: number;
  totalPrice: number;
}

export interface PriceResult {
  currency: { isoCode: string; sign: string; numDecimals: number; rate: string };
  /** The tier actually priced (a tier that is not available falls back to standard). */
  deliveryTier: DeliveryTierCode;
  lineItems: PricedLine[];
  discounts: PricedDiscount[];
  subtotal: number;
  total: number;
  /** Business days of the whole order in the priced tier (null: by quote). */
  turnaroundDays: number | null;
  deadline: Date | null;
  deadlines: { standard: Date | null; rush?: Date; express?: Date };
  rushPriceDifference: number;
  expressPriceDifference: number;
  rushAvailable: boolean;
  expressAvailable: boolean;
  notices: string[];
  noServiceOption: boolean;
  veryLongWordCount: boolean;
  quoteOnly: boolean;
  bestDiscountApplied?: boolean;
  promoCodeError?: string;
  /** The standard-editing word bin of this word count (get-bin-price). */
  wordBin: string | null;
  unavailableServices: { serviceSlug: string; reason: "inactive" | "language" | "no-base" }[];
}
