// Tables of digital editing and translation (see db/migrations/0038_digital.ts, ADR 073).
import type { ColumnType } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;
/** bigint: pg returns a string, PGlite a number; read it with Number(). */
type BigIntColumn = ColumnType<string | number, number | string, number | string>;

export type DigitalPurchaseStatus = "pending" | "active" | "void";
export type DigitalRowStatus = "processing" | "completed" | "failed";

export interface DigitalPurchaseTable {
  id: string;
  user_id: number;
  type: "editing" | "translation";
  /** The offer it was bought from ("editing-annual", a package identity, "chinese-trial"). */
  offer_identity: string;
  /** Its invoice (kind 'digital'); null for the Chinese trial (free). */
  invoice_number: Nullable<string>;
  /** Minor units of currency_iso. */
  price: BigIntColumn;
  currency_iso: string;
  /** Set on activation: valid from starts_at to ends_at (months after). */
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  months: number;
  uses_total: Nullable<number>;
  uses_remaining: Nullable<number>;
  /** JSON array of TranslationLanguage (written as a JSON string). */
  allowed_languages: ColumnType<string[], string | undefined, string>;
  receipt_code: string;
  status: WithDefault<DigitalPurchaseStatus>;
  trial: WithDefault<boolean>;
  created_at: DefaultTimestamp;
  activated_at: NullableTimestamp;
}

export interface DigitalEditTable {
  id: string;
  user_id: number;
  file_id: string;
  name: string;
  style_of_english: "British English" | "American English";
  status: WithDefault<DigitalRowStatus>;
  tracked_file_id: Nullable<string>;
  clean_file_id: Nullable<string>;
  changes: Nullable<number>;
  words: Nullable<number>;
  failure_reason: Nullable<string>;
  order_form_id: Nullable<string>;
  order_file_id: Nullable<string>;
  created_at: DefaultTimestamp;
  completed_at: NullableTimestamp;
  archived_at: NullableTimestamp;
}

export interface DigitalOrderTable {
  id: string;
  user_id: number;
  type: WithDefault<"translation">;
  file_id: string;
  name: string;
  language: "es_ES" | "pt_BR" | "zh_CN";
  purchase_id: string;
  status: WithDefault<DigitalRowStatus>;
  output_file_id: Nullable<string>;
  engine: Nullable<"apertium" | "sandbox">;
  words: Nullable<number>;
  failure_reason: Nullable<string>;
  created_at: DefaultTimestamp;
  completed_at: NullableTimestamp;
  archived_at: NullableTimestamp;
}

export interface DigitalUserStateTable {
  user_id: number;
  /** Staff/admin set it: uploads to digital editing without a subscription. */
  editing_trial: WithDefault<boolean>;
  has_uploaded_edit: WithDefault<boolean>;
  has_uploaded_translation: WithDefault<boolean>;
  chinese_trial_granted_at: NullableTimestamp;
  /** The file of the last create refused with digital-translations-word-count-exceeded; cleared by the next create. */
  word_count_exceeded_file_id: Nullable<string>;
  updated_at: DefaultTimestamp;
}

export interface DigitalTables {
  digital_purchases: DigitalPurchaseTable;
  digital_edits: DigitalEditTable;
  digital_orders: DigitalOrderTable;
  digital_user_state: DigitalUserStateTable;
}
