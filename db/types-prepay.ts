// Tables of credits, the balance ledger and fapiaos (db/migrations/0031_prepay_credits_fapiao.ts). Prepayments
// (retainer invoices) are `invoices` rows of kind 'prepayment' since 0036 (ADR 058); `retainer_invoice_number`
// below names such an invoice.
import type { ColumnType, Generated } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Money = ColumnType<string, number | bigint | string, number | bigint | string>;
type OptMoney = ColumnType<string | null, number | bigint | string | null | undefined, number | bigint | string | null>;
type Opt<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type CreditKind = "courtesy" | "refund" | "referral" | "overpayment";

export interface CreditTable {
  id: Generated<number>;
  user_id: number;
  reference_number: string;
  currency_iso: string;
  amount: Money;
  kind: CreditKind;
  note: Opt<string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  granted_by: Opt<number>;
  created_at: DefaultTimestamp;
}

export type BalanceMovementKind = "deposit" | "spend" | "expire" | "reversal" | "reserve" | "release" | "overpayment" | "refund";

export interface BalanceMovementTable {
  id: Generated<string>;
  user_id: number;
  retainer_invoice_number: Opt<string>;
  credit_id: Opt<number>;
  amount: Money;
  kind: BalanceMovementKind;
  invoice_number: Opt<string>;
  invoice_amount: OptMoney;
  exchange_rate: Opt<string>;
  payment_id: Opt<string>;
  note: Opt<string>;
  actor_user_id: Opt<number>;
  created_at: DefaultTimestamp;
}

export type FapiaoStatus = "requested" | "issued" | "cancelled";

export interface FapiaoTable {
  id: Generated<number>;
  user_id: number;
  invoice_number: Opt<string>;
  retainer_invoice_number: Opt<string>;
  origin: "order" | "stored";
  type: "general" | "special";
  service_type: Opt<string>;
  delivery_timeline: Opt<string>;
  title: string;
  taxpayer_number: Opt<string>;
  special_instructions: Opt<string>;
  contact_email: Opt<string>;
  contact_phone: Opt<string>;
  shipping_address: Opt<string>;
  status: ColumnType<FapiaoStatus, FapiaoStatus | undefined, FapiaoStatus>;
  fapiao_number: Opt<string>;
  file_path: Opt<string>;
  issued_at: NullableTimestamp;
  issued_by: Opt<number>;
  cancelled_at: NullableTimestamp;
  cancelled_by: Opt<number>;
  created_at: DefaultTimestamp;
}

export interface PrepayTables {
  credits: CreditTable;
  balance_movements: BalanceMovementTable;
  fapiaos: FapiaoTable;
}
