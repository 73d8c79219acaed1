// Tables of the catalogue and pricing (see db/migrations/0006_catalogue.ts).
// `numeric` columns come back as strings (exact decimals); the loader in
// server/catalogue scales them to integers.
import type { ColumnType, Generated } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** A `date` column (YYYY-MM-DD); read it with to_char to avoid time-zone shifts. */
type DateColumn = ColumnType<string, string, string>;
type NullableDate = ColumnType<string | null, string | null | undefined, string | null>;
/** numeric: written as a number or a decimal string, read as a string. */
type Numeric = ColumnType<string, string | number, string | number>;
type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;
type JsonColumn<T> = ColumnType<T, string | undefined, string>;
type Optional<T> = ColumnType<T, T | undefined, T>;

export type ServiceType = "editing" | "translation" | "other";
export type PriceKind = "word_bins" | "per_word" | "fixed" | "per_unit" | "of_base";
export type TurnaroundKind = "steps" | "fixed" | "quote";
export type DeliveryTierCode = "standard" | "rush" | "express";
export type BundleQuestionType = "multiple-choice" | "int" | "journal-select" | "toggle-type";

export interface ServiceGroupTable {
  slug: string;
  name_key: string;
  service_type: string;
  columns: Optional<number>;
  sort_order: Optional<number>;
}

export interface ServiceTable {
  id: Generated<number>;
  identity: string;
  slug: string;
  type: ServiceType;
  group_slug: string;
  name_key: string;
  description_key: ColumnType<string | null, string | null | undefined, string | null>;
  price_kind: PriceKind;
  price_cents: ColumnType<number | null, number | null | undefined, number | null>;
  per_word_usd: NullableNumeric;
  minimum_cents: ColumnType<number | null, number | null | undefined, number | null>;
  multiplier: ColumnType<string, string | number | undefined, string | number>;
  base_service_slug: ColumnType<string | null, string | null | undefined, string | null>;
  free_with_slugs: JsonColumn<string[]>;
  unit: ColumnType<"figure" | "table" | null, "figure" | "table" | null | undefined, "figure" | "table" | null>;
  min_quantity: Optional<number>;
  max_quantity: Optional<number>;
  turnaround_kind: TurnaroundKind;
  turnaround_days: ColumnType<number | null, number | null | undefined, number | null>;
  turnaround_up_to_words: ColumnType<number | null, number | null | undefined, number | null>;
  turnaround_step_words: ColumnType<number | null, number | null | undefined, number | null>;
  turnaround_step_days: ColumnType<number | null, number | null | undefined, number | null>;
  max_words: ColumnType<number | null, number | null | undefined, number | null>;
  source_language_id: ColumnType<number | null, number | null | undefined, number | null>;
  target_language_id: ColumnType<number | null, number | null | undefined, number | null>;
  rush_eligible: Optional<boolean>;
  express_eligible: Optional<boolean>;
  featured: Optional<boolean>;
  recommended: Optional<boolean>;
  active: Optional<boolean>;
  sort_order: Optional<number>;
  updated_at: DefaultTimestamp;
}

export interface WordBinTable {
  id: Generated<number>;
  name: string;
  min_words: number;
  max_words: number | null;
  price_cents: number | null;
  per_word_usd: NullableNumeric;
}

export interface DeliveryTierTable {
  code: DeliveryTierCode;
  name_key: string;
  multiplier: Numeric;
  turnaround_days: number | null;
  sort_order: Optional<number>;
}

export interface RushRuleTable {
  id: Generated<number>;
  name: string;
  starts_on: NullableDate;
  ends_on: NullableDate;
  grandparent_area_of_study_id: number | null;
  lower_word_count_limit: number | null;
  upper_word_count_limit: number | null;
  loyalty_level_identities: JsonColumn<string[]>;
  service_identities: JsonColumn<string[]>;
  active: Optional<boolean>;
}

export interface BundleTable {
  id: Generated<number>;
  slug: string;
  name_key: string;
  description_key: string | null;
  primary_service_slug: string;
  discount_percent: Numeric;
  deadlines: JsonColumn<Record<string, number>>;
  learn_more_terms: JsonColumn<{ serviceSlug: string; key: string }[]>;
  active: Optional<boolean>;
  sort_order: Optional<number>;
}

export interface BundleServiceTable {
  bundle_id: number;
  service_slug: string;
  sort_order: Optional<number>;
}

export interface BundleQuestionTable {
  id: Generated<number>;
  slug: string;
  term: string;
  type: BundleQuestionType;
  required: Optional<boolean>;
  service_slug: string | null;
  required_with: string | null;
  sort_order: Optional<number>;
}

export interface BundleQuestionChoiceTable {
  id: Generated<number>;
  question_id: number;
  choice: string;
  bundle_slugs: JsonColumn<string[]>;
  sort_order: Optional<number>;
}

export interface PromoCodeTable {
  id: Generated<number>;
  code: string;
  description_key: string | null;
  percent_off: NullableNumeric;
  amount_off_cents: number | null;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  active: Optional<boolean>;
  max_uses: number | null;
  times_used: Optional<number>;
  /** Issue 25 (0040): the owner of a personal code (null: anyone may use it). */
  user_id: ColumnType<number | null, number | null | undefined, number | null>;
  campaign_id: ColumnType<number | null, number | null | undefined, number | null>;
  name: ColumnType<string | null, string | null | undefined, string | null>;
  highlighted: Optional<boolean>;
  /** 'level:<identity>', 'referral-welcome', 'campaign', 'staff'. */
  source: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PreferredGroupTable {
  id: Generated<number>;
  code: string;
  name: string;
  discount: Numeric;
  percentage_discount: Optional<boolean>;
  active: Optional<boolean>;
  /** Issue 25 (0040). */
  greeting_text: ColumnType<string | null, string | null | undefined, string | null>;
  /** False for the free-trial groups: no membership widget. */
  membership_displayed: Optional<boolean>;
  shareable: Optional<boolean>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ServiceDiscountTable {
  id: Generated<number>;
  code: string;
  kind: "re-edit" | "service";
  description_key: string;
  service_slug: string | null;
  requires_service_type: ServiceType | null;
  percent_off: Numeric;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  active: Optional<boolean>;
}

export interface AreaOfStudyTable {
  id: number;
  parent_id: number | null;
  level: 1 | 2 | 3;
  name_en: string;
  name_zh: string;
  name_ja: string;
  name_pt: string;
  name_es: string;
  active: Optional<boolean>;
  sort_order: Optional<number>;
}

export interface HolidayTable {
  id: Generated<number>;
  localization: string;
  date: DateColumn;
  name: string;
}

export interface CatalogueTables {
  service_groups: ServiceGroupTable;
  services: ServiceTable;
  word_bins: WordBinTable;
  delivery_tiers: DeliveryTierTable;
  rush_rules: RushRuleTable;
  bundles: BundleTable;
  bundle_services: BundleServiceTable;
  bundle_questions: BundleQuestionTable;
  bundle_question_choices: BundleQuestionChoiceTable;
  promo_codes: PromoCodeTable;
  preferred_groups: PreferredGroupTable;
  service_discounts: ServiceDiscountTable;
  areas_of_study: AreaOfStudyTable;
  holidays: HolidayTable;
}
