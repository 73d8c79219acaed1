// Tables of payments, their provider events, idempotency keys and vouchers (db/migrations/0030_payments.ts).
import type { ColumnType, Generated } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type DefaultJson<T> = ColumnType<T, string | undefined, string>;
type Money = ColumnType<string, number | bigint | string, number | bigint | string>;
type Opt<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type PaymentPurpose = "order-form" | "invoices" | "prepay" | "digital";
export type PaymentStatus = "processing" | "pending" | "succeeded" | "failed" | "cancelled" | "refunded";

export interface PaymentTable {
  id: Generated<string>;
  user_id: number;
  purpose: PaymentPurpose;
  order_form_id: Opt<string>;
  invoice_numbers: DefaultJson<string[]>;
  method_id: number;
  provider: string;
  sandbox: Generated<boolean>;
  status: PaymentStatus;
  amount: Money;
  currency_iso: string;
  exchange_rate: Opt<string>;
  provider_ref: Opt<string>;
  details: DefaultJson<Record<string, unknown>>;
  next_action: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  error: Opt<string>;
  refunded_amount: ColumnType<string, number | bigint | string | undefined, number | bigint | string>;
  impersonator_id: Opt<number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  paid_at: NullableTimestamp;
  lease_until: NullableTimestamp;
}

export interface PaymentEventTable {
  id: Generated<string>;
  payment_id: Opt<string>;
  provider: string;
  kind: string;
  event_id: Opt<string>;
  verified: Generated<boolean>;
  outcome: Opt<string>;
  data: DefaultJson<Record<string, unknown>>;
  actor_user_id: Opt<number>;
  created_at: DefaultTimestamp;
}

export interface IdempotencyKeyTable {
  user_id: number;
  key: string;
  scope: string;
  request_hash: string;
  state: Generated<"processing" | "done">;
  status: Opt<number>;
  response: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  locked_until: ColumnType<Date, Date | string, Date | string>;
  created_at: DefaultTimestamp;
}

export interface VoucherTable {
  id: Generated<number>;
  code: string;
  description: Opt<string>;
  currency_iso: Opt<string>;
  amount: ColumnType<string | null, number | bigint | string | null | undefined, number | bigint | string | null>;
  percent: Opt<number>;
  max_uses: Opt<number>;
  times_used: Generated<number>;
  valid_until: NullableTimestamp;
  active: Generated<boolean>;
  created_by: Opt<number>;
  created_at: DefaultTimestamp;
}

export interface PaymentTables {
  payments: PaymentTable;
  payment_events: PaymentEventTable;
  idempotency_keys: IdempotencyKeyTable;
  vouchers: VoucherTable;
}
