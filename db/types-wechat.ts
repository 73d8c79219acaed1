// Tables of WeChat QR sign-in (see db/migrations/0005_wechat.ts).
import type { ColumnType } from "kysely";

export type WechatQrStatus = "pending" | "scanned" | "confirmed" | "expired" | "cancelled" | "consumed";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface WechatLoginSessionTable {
  /** Public handle of the QR session (≥ 128 random bits, base64url); encoded in the QR image. */
  login_code: string;
  /** The provider's ticket for the QR image (random in the sandbox). */
  ticket: string;
  /** Adapter that created the session ("sandbox"). */
  provider: string;
  /** SHA-256 (hex) of the secret in the creating browser's HttpOnly cookie. */
  binding_hash: string;
  status: ColumnType<WechatQrStatus, WechatQrStatus | undefined, WechatQrStatus>;
  /** Site language of the creating page (cn, en, ...). */
  lang: string;
  redirect: string | null;
  origin: string | null;
  /** The confirming user, once confirmed. */
  user_id: number | null;
  /** Address and browser of the creating request, shown on the confirmation page. */
  ip: string | null;
  user_agent: string | null;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  scanned_at: NullableTimestamp;
  confirmed_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}

export interface WechatTables {
  wechat_login_sessions: WechatLoginSessionTable;
}
