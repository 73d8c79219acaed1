// Table types for kysely. Keep in step with db/migrations.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** A required timestamp. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp with a database default (optional on insert). */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;

export interface AppConfigTable {
  key: string;
  value: Json<unknown>;
  description: string;
  updated_at: DefaultTimestamp;
}

export interface FeatureFlagTable {
  name: string;
  enabled: boolean;
  description: string;
  updated_at: DefaultTimestamp;
}

export interface LocalizationTable {
  identity: string; // US, CN, BR
  name: string;
  is_default: boolean;
  time_zone: string;
  default_currency: string;
  default_lang: string;
  allows_fapiao_processing_after_payment: boolean;
  tax_types: Json<string[]>;
  payment_methods: Json<number[]>;
}

export interface CurrencyTable {
  iso_code: string;
  short_name: string;
  name: string;
  sign: string;
  num_decimals: number;
  /** CNY is selectable only where the specs allow (China localisation, admins). */
  selectable: boolean;
  sort_order: number;
}

export interface ExchangeRateTable {
  iso_code: string;
  /** Units of this currency per 1 USD, as a decimal string (numeric(18,8)). */
  rate: ColumnType<string, string | number, string | number>;
  effective_on: ColumnType<string, string, string>;
}

export interface CountryTable {
  id: Generated<number>;
  iso2: string;
  iso3: string;
  name: string;
  calling_code: string;
  phone_min: number;
  phone_max: number;
  currency_iso: string;
  localization: string;
}

export interface StateTable {
  id: Generated<number>;
  country_id: number;
  code: string;
  name: string;
}

export interface LanguageTable {
  id: number;
  code: string;
  name: string;
  manuscript_language: boolean;
  sort_order: number;
}

export interface UserTable {
  id: Generated<number>;
  identity: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  title: string | null;
  institution: string | null;
  phone_country_code: string | null;
  phone_number: string | null;
  country_id: number | null;
  currency_iso: string;
  language: string;
  localization: string;
  active: Generated<boolean>;
  is_staff: Generated<boolean>;
  is_admin: Generated<boolean>;
  optin_to_marketing: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  secondary_email: ColumnType<string | null, string | null | undefined, string | null>;
  orcid: ColumnType<string | null, string | null | undefined, string | null>;
  city: ColumnType<string | null, string | null | undefined, string | null>;
  found_us: ColumnType<string | null, string | null | undefined, string | null>;
  credit_notes_locked: Generated<boolean>;
  exclude_from_delinquent_check: Generated<boolean>;
  watchlist_notification: Generated<boolean>;
  language_assessment_enabled: Generated<boolean>;
  wfoe_in_migrating_group: Generated<boolean>;
  wfoe_accepted_tos_at: NullableTimestamp;
  wfoe_migrated: Generated<boolean>;
  snid_country_update_status: ColumnType<string | null, string | null | undefined, string | null>;
  password_changed_at: NullableTimestamp;
  workplace: ColumnType<string | null, string | null | undefined, string | null>;
  other_found_us: ColumnType<string | null, string | null | undefined, string | null>;
  email_verified_at: NullableTimestamp;
  /** The user's referral code (0029, ADR 031): drawn by the database, unique. */
  referral_code: Generated<string>;
  /** Invoices, credits and their widgets are not shown to this user (spec 2 §6, 0030). */
  hide_invoices: Generated<boolean>;
  /** The user may apply vouchers (spec 2 §5 voucherAvailable, 0030). */
  voucher_available: Generated<boolean>;
  /** False until the user picks a currency (issue 13 §2): older accounts, accounts staff made (0031). */
  currency_chosen: Generated<boolean>;
  /** Issue 25 (0040): the reward points total, changed only with a reward_history row in the same transaction. */
  reward_points: Generated<number>;
  /** The loyalty level reached ('level0'…'level6'). */
  loyalty_level: Generated<string>;
  has_rewards: Generated<boolean>;
  /** Who referred the user (a referral link at registration). */
  referred_by_user_id: ColumnType<number | null, number | null | undefined, number | null>;
  preferred_group_id: ColumnType<number | null, number | null | undefined, number | null>;
  preferred_group_joined_at: NullableTimestamp;
  /** The user dismissed the "check your spam folder" banner. */
  hide_check_spam_message: Generated<boolean>;
}

export interface AddressTable {
  id: Generated<number>;
  user_id: number;
  label: "billing" | "invoice";
  name: string | null;
  organization: string | null;
  address1: string;
  address2: string | null;
  city: string;
  state: string | null;
  zip: string | null;
  country_id: number;
  phone: string | null;
  vat: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SessionTable {
  /** SHA-256 of the session token; the token itself only lives in the cookie. */
  id_hash: string;
  user_id: number;
  impersonator_id: number | null;
  created_at: DefaultTimestamp;
  last_seen_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_user_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  data: Json<Record<string, unknown>>;
  created_at: DefaultTimestamp;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_email: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  template: string;
  lang: string;
  user_id: number | null;
  /** queued (kept in the outbox: no SMTP configured), sent, failed */
  status: Generated<string>;
  error: string | null;
  created_at: DefaultTimestamp;
  sent_at: NullableTimestamp;
  /** The sender's name for a message that a retried job must not write twice (unique; null for most mail). */
  dedupe_key: string | null;
}

export interface PasswordResetTokenTable {
  token_hash: string;
  user_id: number;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface AnalyticsEventTable {
  id: Generated<string>;
  user_id: number | null;
  name: string;
  data: Json<Record<string, unknown>>;
  created_at: DefaultTimestamp;
}

import type { SocialTables } from "./types-social";
import type { WechatTables } from "./types-wechat";
import type { CatalogueTables } from "./types-catalogue";
import type { DocumentTables } from "./types-documents";
import type { OrderTables } from "./types-orders";
import type { PaymentTables } from "./types-payments";
import type { PrepayTables } from "./types-prepay";
import type { GrammarTables } from "./types-grammar";
import type { DigitalTables } from "./types-digital";
import type { SurveyTables } from "./types-survey";
import type { RewardTables } from "./types-rewards";

export interface Database
  extends
    SocialTables,
    WechatTables,
    CatalogueTables,
    DocumentTables,
    OrderTables,
    PaymentTables,
    PrepayTables,
    GrammarTables,
    DigitalTables,
    SurveyTables,
    RewardTables {
  addresses: AddressTable;
  mail_outbox: MailOutboxTable;
  password_reset_tokens: PasswordResetTokenTable;
  analytics_events: AnalyticsEventTable;
  app_config: AppConfigTable;
  feature_flags: FeatureFlagTable;
  localizations: LocalizationTable;
  currencies: CurrencyTable;
  exchange_rates: ExchangeRateTable;
  countries: CountryTable;
  states: StateTable;
  languages: LanguageTable;
  users: UserTable;
  sessions: SessionTable;
  audit_log: AuditLogTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
