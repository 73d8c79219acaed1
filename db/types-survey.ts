// The digital tools' survey (see db/migrations/0039_digital_survey.ts, ADR 074).
import type { ColumnType } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type SurveyArea = "digital-editing" | "digital-translations";

export interface DigitalSurveyAnswerTable {
  id: string;
  user_id: Nullable<number>;
  area: SurveyArea;
  /** 1 (not useful) – 5 (very useful). */
  usefulness: number;
  recommend: boolean;
  /** Free text, at most 2,000 characters. */
  comment: Nullable<string>;
  created_at: DefaultTimestamp;
}

export interface SurveyTables {
  digital_survey_answers: DigitalSurveyAnswerTable;
}
