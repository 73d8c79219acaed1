// Tables of uploaded files, document analysis and background jobs (see db/migrations/0007_documents.ts).
import type { ColumnType, Generated } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** bigint: pg returns a string, PGlite a number; read it with Number(). */
type BigIntColumn = ColumnType<string | number, number | string, number | string>;

export type FileKind =
  | "main"
  | "figure"
  | "table"
  | "main_reference"
  | "figure_reference"
  | "table_reference"
  /** Completed work delivered to the researcher (issue 11). */
  | "deliverable"
  /** An attachment of a support request (a proof of payment). */
  | "support"
  /** A manuscript uploaded to the grammar check (issue 23, migration 0037). */
  | "assessment"
  /** A document of digital editing or translation, uploaded or produced (issue 24, migration 0038). */
  | "digital";

export interface FileTable {
  id: string;
  owner_user_id: number | null;
  draft_key: string | null;
  order_form_id: ColumnType<string | null, string | null | undefined, string | null>;
  kind: FileKind;
  /** The name the uploader gave (sanitised); never used as a path. */
  original_name: string;
  /** Random name on disk under DATA_DIR/files/<first two characters>/. */
  stored_name: string;
  size_bytes: BigIntColumn;
  /** Detected from the content, not taken from the client. */
  content_type: string;
  sha256: string;
  created_at: DefaultTimestamp;
  deleted_at: NullableTimestamp;
  /**
   * Where an anonymous file came from (migration 0033, ADR 049): the IPv4 address or the IPv6 /64, for the
   * per-address quota and daily cap. Null for a user's file; cleared on claim and once a removed file is a day old.
   */
  uploader_address: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DocumentAnalysisTable {
  file_id: string;
  status: ColumnType<"pending" | "done" | "failed", "pending" | "done" | "failed" | undefined, "pending" | "done" | "failed">;
  word_count: number | null;
  language_id: number | null;
  language_code: string | null;
  error: string | null;
  analysed_at: NullableTimestamp;
}

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobTable {
  id: Generated<string>;
  kind: string;
  payload: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: DefaultTimestamp;
  locked_at: NullableTimestamp;
  locked_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
  finished_at: NullableTimestamp;
}

export interface DocumentTables {
  files: FileTable;
  document_analyses: DocumentAnalysisTable;
  jobs: JobTable;
}
