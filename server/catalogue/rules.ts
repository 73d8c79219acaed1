// The fixed rules of the specs (spec 1 §5 and §9, spec 2 §5 and §9) and the
// small pure helpers the pricing engine builds on. Prices never live here: only
// limits the specs state as constants.
import { localDate } from "./calendar";
import { perWordCents } from "./money";
import type { Catalogue, CatalogueService, PromoCode, RushRule, ServiceSelection, WordBin } from "./types";

/** Word count accepted by the forms (spec 1 §9). */
export const WORD_COUNT_MIN = 1;
/** Largest word count that can be stored (documents may be longer than the form allows). */
export const WORD_COUNT_STORED_MAX = 999_999_999;

/** Express: flag on, 4,000 to 5,999 words, Standard or Premium Editing as the primary service. */
export const EXPRESS_MIN_WORDS = 4000;
export const EXPRESS_MAX_WORDS = 5999;

/** Word-count notices: translation and multimedia at and above (spec 2 §9); the custom-deadline
 * notices strictly above (spec 1 §5 and §9 "over"; ADR 023). */
export const TRANSLATION_NOTICE_WORDS = 12_000;
export const CUSTOM_TRANSLATION_DEADLINE_WORDS = 18_000;
export const MULTIMEDIA_NOTICE_WORDS = 18_000;
export const CUSTOM_EDITING_DEADLINE_WORDS = 40_000;
/** Manuscript language ids the notices depend on (db/seed/reference.ts). */
export const ENGLISH_LANGUAGE_ID = 1;
export const CHINESE_LANGUAGE_ID = 2;

/** The placeholder area (spec 1 §3): an undetermined area matches every rush rule. */
export const UNDETERMINED_AREA_ID = 494;

/** Service groups whose services are multimedia (the multimedia notice). */
export const MULTIMEDIA_GROUP = "figures";
export const SCIENTIFIC_EDITING_SLUG = "scientific-editing";

/** Thrown for input the forms should never let through (the route answers 400 with `code`). */
export class PricingInputError extends Error {
  constructor(
    readonly code: string,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = "PricingInputError";
  }
}

/** Translation key of a notice or error code returned by the engine. */
export const noticeKey = (code: string) => `catalogue:notices.${code}`;
export const errorKey = (code: string) => `catalogue:errors.${code}`;

export function validateWordCount(wordCount: number): string | null {
  if (!Number.isInteger(wordCount) || wordCount < WORD_COUNT_MIN || wordCount > WORD_COUNT_STORED_MAX) return "word-count-range-error";
  return null;
}

/** Quantity of a counted service (figure or table formatting): an integer within the service's limits (1 to 25). */
export function validateQuantity(quantity: number, service?: Pick<CatalogueService, "price">): string | null {
  const min = service?.price.minQuantity ?? 1;
  const max = service?.price.maxQuantity ?? 25;
  if (!Number.isInteger(quantity) || quantity < min || quantity > max) return "quantity-range-error";
  return null;
}

/** The standard-editing bin of a word count (get-bin-price), or null outside every bin. */
export function getBinForWordCount(catalogue: Pick<Catalogue, "bins">, wordCount: number): WordBin | null {
  return catalogue.bins.find((b) => wordCount >= b.minWords && (b.maxWords === null || wordCount <= b.maxWords)) ?? null;
}

/** USD cents of a word count in its bin (a fixed bin price, or the per-word rate of the open top bin). */
export function binPriceCents(bin: WordBin, wordCount: number): number {
  return bin.cents ?? perWordCents(wordCount, bin.perWordMicros ?? 0);
}

export function findService(catalogue: Pick<Catalogue, "services">, selection: ServiceSelection): CatalogueService | undefined {
  if (selection.serviceId !== undefined) return catalogue.services.find((s) => s.id === selection.serviceId);
  if (selection.serviceIdentity !== undefined) return catalogue.services.find((s) => s.identity === selection.serviceIdentity);
  if (selection.serviceSlug !== undefined) return catalogue.services.find((s) => s.slug === selection.serviceSlug);
  return undefined;
}

/** Business days of a service for a word count in the standard tier (null: by quote). */
export function serviceTurnaroundDays(service: CatalogueService, wordCount: number): number | null {
  const t = service.turnaround;
  if (t.kind === "quote" || t.days === null) return null;
  return t.days + extensionDays(service, wordCount);
}

/** Days added beyond the service's base words ("+1 day per further 3,000"). */
export function extensionDays(service: CatalogueService, wordCount: number): number {
  const t = service.turnaround;
  if (t.kind !== "steps" || t.upToWords === null || !t.stepWords || t.stepDays === null) return 0;
  return Math.ceil(Math.max(0, wordCount - t.upToWords) / t.stepWords) * t.stepDays;
}

export interface RushContext {
  /** The order's local date (YYYY-MM-DD) in its localisation. */
  date: string;
  /** Level-1 ancestor of the order's area of study (null: not chosen yet). */
  grandparentAreaOfStudyId: number | null;
  /** The order's area is the 'Undetermined' placeholder. */
  undeterminedArea: boolean;
  loyaltyLevel: string | null;
  serviceIdentity: string;
  wordCount: number;
}

/**
 * Spec 2 §5: a rush rule applies when its date range is active, its area of study
 * matches (or is absent, or the order's area is the undetermined wildcard, or the
 * order has no area yet), the loyalty level is listed (or the list is empty), the
 * service is listed (or the list is empty), and the word count lies within the
 * limits that are set.
 */
export function rushRuleApplies(rule: RushRule, c: RushContext): boolean {
  if (rule.startsOn !== null && c.date < rule.startsOn) return false;
  if (rule.endsOn !== null && c.date > rule.endsOn) return false;
  if (
    rule.grandparentAreaOfStudyId !== null &&
    c.grandparentAreaOfStudyId !== null &&
    !c.undeterminedArea &&
    rule.grandparentAreaOfStudyId !== c.grandparentAreaOfStudyId
  )
    return false;
  if (rule.loyaltyLevelIdentities.length > 0 && (c.loyaltyLevel === null || !rule.loyaltyLevelIdentities.includes(c.loyaltyLevel)))
    return false;
  if (rule.serviceIdentities.length > 0 && !rule.serviceIdentities.includes(c.serviceIdentity)) return false;
  if (rule.lowerWordCountLimit !== null && c.wordCount < rule.lowerWordCountLimit) return false;
  if (rule.upperWordCountLimit !== null && c.wordCount > rule.upperWordCountLimit) return false;
  return true;
}

/** The rush rules that apply to one service of an order. */
export function matchingRushRules(
  catalogue: Pick<Catalogue, "rushRules" | "areaGrandparents" | "calendars">,
  input: {
    now: Date;
    localization: string;
    areaOfStudyId?: number | null;
    loyaltyLevel?: string | null;
    serviceIdentity: string;
    wordCount: number;
  },
): RushRule[] {
  const timeZone = catalogue.calendars[input.localization]?.timeZone ?? "UTC";
  const area = input.areaOfStudyId ?? null;
  const context: RushContext = {
    date: localDate(input.now, timeZone),
    grandparentAreaOfStudyId: area === null ? null : (catalogue.areaGrandparents[String(area)] ?? null),
    undeterminedArea: area === UNDETERMINED_AREA_ID,
    loyaltyLevel: input.loyaltyLevel ?? null,
    serviceIdentity: input.serviceIdentity,
    wordCount: input.wordCount,
  };
  return catalogue.rushRules.filter((r) => rushRuleApplies(r, context));
}

export type PromoCheck = { ok: true; promo: PromoCode } | { ok: false; error: string };

/**
 * Whether a promotional code can be used now. One code per order (spec 1 §9):
 * with `currentCode` set, another code is refused until the first is removed.
 */
export function checkPromoCode(
  catalogue: Pick<Catalogue, "promoCodes">,
  code: string | null | undefined,
  options: { now: Date; currentCode?: string | null },
): PromoCheck {
  const normalised = (code ?? "").trim().toUpperCase();
  if (!normalised) return { ok: false, error: "promo-code-empty" };
  const current = options.currentCode?.trim().toUpperCase();
  if (current && current !== normalised) return { ok: false, error: "one-promo-code-per-order" };
  const promo = catalogue.promoCodes[normalised];
  if (!promo) return { ok: false, error: "promo-code-invalid" };
  const now = options.now.getTime();
  if (promo.startsAt !== null && now < Date.parse(promo.startsAt)) return { ok: false, error: "promo-code-invalid" };
  if (promo.endsAt !== null && now >= Date.parse(promo.endsAt)) return { ok: false, error: "promo-code-expired" };
  if (promo.maxUses !== null && promo.timesUsed >= promo.maxUses) return { ok: false, error: "promo-code-used-up" };
  return { ok: true, promo };
}

/** Whether a dated discount row is in force at `now`. */
export function inForce(row: { startsAt: string | null; endsAt: string | null }, now: Date): boolean {
  const t = now.getTime();
  return (row.startsAt === null || t >= Date.parse(row.startsAt)) && (row.endsAt === null || t < Date.parse(row.endsAt));
}
