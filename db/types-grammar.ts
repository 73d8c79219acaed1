// Tables of the grammar check (see db/migrations/0037_language_assessments.ts, ADR 070).
import type { ColumnType } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
/** A JSON column written as a JSON string. */
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export type ScoreStatus = "processing" | "completed" | "failed";
export type ErrorCountStatus = "processing" | "completed" | "failed" | "skipped";

export interface LanguageAssessmentTable {
  /** The assessment's identity (spec 3 §3). */
  id: string;
  user_id: Nullable<number>;
  /** sha256 of the anonymous browser's draft cookie (as order_forms.draft_key_hash); null once claimed. */
  draft_key_hash: Nullable<string>;
  file_id: string;
  /** The uploaded file's name (sanitised). */
  name: string;
  score_status: ColumnType<ScoreStatus, ScoreStatus | undefined, ScoreStatus>;
  error_count_status: ColumnType<ErrorCountStatus, ErrorCountStatus | undefined, ErrorCountStatus>;
  /** The score × 10 (0–100): one decimal, compared exactly. */
  score_tenths: Nullable<number>;
  percentile: Nullable<number>;
  error_count: NullableJson<Record<string, number>>;
  issues: NullableJson<unknown[]>;
  words: Nullable<number>;
  dialect: Nullable<"american" | "british">;
  /** Why the job failed (for staff and logs; the page says 'could not complete'). */
  failure_reason: Nullable<string>;
  /** The order form draft 'Get Started' attached a copy of the file to, and that copy. */
  order_form_id: Nullable<string>;
  order_file_id: Nullable<string>;
  created_at: DefaultTimestamp;
  completed_at: NullableTimestamp;
  archived_at: NullableTimestamp;
}

export interface CaptchaSpentTable {
  challenge_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface GrammarTables {
  language_assessments: LanguageAssessmentTable;
  captcha_spent: CaptchaSpentTable;
}
