// Tables of the order form, orders, invoices and price quotes (see db/migrations/0008_order_forms.ts).
import type { ColumnType, Generated } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;
type DefaultJson<T> = ColumnType<T, string | undefined, string>;
type Money = ColumnType<string, number | bigint | string, number | bigint | string>;
type Opt<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface SelectionRow {
  serviceSlug: string;
  quantity?: number;
  /** Re-edit services: the service of the original order they rework (prices a touch-up as its share). */
  originalServiceSlug?: string;
}

export interface OrderFormTable {
  id: string;
  user_id: Opt<number>;
  draft_key_hash: Opt<string>;
  status: Generated<"draft" | "placed">;
  version: Generated<number>;
  rework: Generated<boolean>;
  current_step: Generated<string>;
  customer_goal: Generated<string>;
  upload_files_later: Generated<boolean>;
  word_count: Opt<number>;
  language_id: Opt<number>;
  selections: DefaultJson<SelectionRow[]>;
  decline_editing: Generated<boolean>;
  delivery_tier: Generated<"standard" | "rush" | "express">;
  bundle_interest: Generated<boolean>;
  bundle_answers: DefaultJson<Record<string, unknown>>;
  bundle_id: Opt<number>;
  project_title: Opt<string>;
  area_of_study_id: Opt<number>;
  style_of_english: Opt<string>;
  journal: ColumnType<{ name: string; url?: string } | null, string | null | undefined, string | null>;
  referral_emails: DefaultJson<string[]>;
  promo_code: Opt<string>;
  currency_iso: Generated<string>;
  duplicate_choice: Opt<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  placed_at: NullableTimestamp;
  rework_of_order_id: Opt<number>;
  rework_instructions: Opt<string>;
  /** The voucher applied to this form (0030). */
  voucher_code: Opt<string>;
}

export interface OrderTable {
  id: Generated<number>;
  external_id: string;
  user_id: number;
  order_form_id: string;
  title: string;
  status: string;
  currency_iso: string;
  subtotal: Money;
  total: Money;
  line_items: Json<unknown[]>;
  discounts: Json<unknown[]>;
  deadline: NullableTimestamp;
  delivery_tier: string;
  word_count: Opt<number>;
  language_id: Opt<number>;
  area_of_study_id: Opt<number>;
  payment_method_id: number;
  purchase_order: Opt<string>;
  paid: Generated<boolean>;
  created_at: DefaultTimestamp;
  rework_of_order_id: Opt<number>;
  /** The staff member who placed it while viewing the portal as the researcher (issue 10 §8). */
  impersonator_id: Opt<number>;
  completed_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  status_changed_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  version: Generated<number>;
  admin_created: Generated<boolean>;
  suppress_invoice_creation: Generated<boolean>;
  require_customer_notification: Generated<boolean>;
  override_download_available: Generated<boolean>;
  style_of_english: Opt<string>;
  journal: ColumnType<{ name: string; url?: string } | null, string | null | undefined, string | null>;
  service_answers: DefaultJson<Record<string, string>>;
  notification_emails: DefaultJson<string[]>;
}

/** One transition of an order's life (server/orders/life.ts), with who made it. */
export interface OrderHistoryTable {
  id: Generated<string>;
  order_id: number;
  event: string;
  from_status: string | null;
  to_status: string;
  actor_user_id: Opt<number>;
  impersonator_id: Opt<number>;
  note: Opt<string>;
  data: DefaultJson<Record<string, unknown>>;
  notified_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

/** A file delivered to the researcher (completed work), stored in the file store like an upload. */
export interface DeliverableTable {
  id: Generated<string>;
  order_id: number;
  key: string;
  file_id: string;
  name: string;
  size_bytes: ColumnType<string | number, number | string, number | string>;
  sha256: string;
  content_type: string;
  uploaded_by: Opt<number>;
  created_at: DefaultTimestamp;
  removed_at: NullableTimestamp;
}

export interface CertifiedFile {
  name: string;
  sizeBytes: number;
  sha256: string;
}

export interface CertificateTable {
  order_id: number;
  code: string;
  title: string;
  authors: Generated<string>;
  /** Translation keys of the services certified (catalogue name keys). */
  services: DefaultJson<string[]>;
  files: DefaultJson<CertifiedFile[]>;
  lang: Generated<string>;
  issued_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  issued_by: Opt<number>;
}

export type SupportRequestType = "general" | "inactive-service" | "proof-of-payment";

export interface SupportRequestTable {
  id: Generated<string>;
  user_id: Opt<number>;
  order_id: Opt<number>;
  type: SupportRequestType;
  email: string;
  name: Opt<string>;
  subject: Opt<string>;
  message: string;
  file_id: Opt<string>;
  lang: Generated<string>;
  status: Generated<"open" | "closed">;
  created_at: DefaultTimestamp;
  closed_at: NullableTimestamp;
  closed_by: Opt<number>;
}

/** A payment recorded against an invoice (a ledger row: the invoice's balance changes with it). */
export interface InvoicePaymentTable {
  id: Generated<string>;
  invoice_number: string;
  amount: Money;
  currency_iso: string;
  payment_method_id: number;
  reference: string;
  received_on: ColumnType<string, string, string>;
  recorded_by: Opt<number>;
  created_at: DefaultTimestamp;
  /** The payment this money came from (0030); null for a transfer staff recorded by hand. */
  payment_id: Opt<string>;
  kind: Generated<"payment" | "refund" | "writeoff">;
  paid_amount: ColumnType<string | null, number | bigint | string | null | undefined, number | bigint | string | null>;
  paid_currency_iso: Opt<string>;
  exchange_rate: Opt<string>;
}

/** What an invoice bills (ADR 058): an order, or a prepayment (money that becomes a prepaid balance once paid). */
export type InvoiceKind = "order" | "prepayment" | "digital";

export interface InvoiceTable {
  number: string;
  /** 'order' (order_id set) or 'prepayment' (order_id null; numbered "P" + localisation + digits, ADR 058). */
  kind: ColumnType<InvoiceKind, InvoiceKind | undefined, InvoiceKind>;
  order_id: Opt<number>;
  user_id: number;
  currency_iso: string;
  amount: Money;
  balance: Money;
  status: string;
  created_at: DefaultTimestamp;
  due_at: NullableTimestamp;
  pending_writeoff: Generated<boolean>;
  written_off_at: NullableTimestamp;
  lang: Opt<string>;
  localization: Opt<string>;
  purchase_order: Opt<string>;
  fapesp_process_number: Opt<string>;
  grant_number: Opt<string>;
  billing: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** The issuer as printed when the invoice was issued (ADR 052): { identity, name, address[], email, phone, taxId }. */
  legal_entity: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** The amount in USD cents at `exchange_rate` (the invoice's currency per 1 USD) when it was issued. */
  usd_total: ColumnType<string | null, number | bigint | string | null | undefined, number | bigint | string | null>;
  exchange_rate: Opt<string>;
  /** The payment method chosen when it was issued or last paid (a prepayment's). */
  method_id: Opt<number>;
  /** When nothing was left to pay (set for prepayments; order invoices before 0036 have none). */
  paid_at: NullableTimestamp;
  /** A prepayment's balance may be spent until then (null: no end). */
  expires_at: NullableTimestamp;
}

export interface PriceQuoteTable {
  estimate_id: string;
  order_form_id: string;
  user_id: Opt<number>;
  data: Json<Record<string, unknown>>;
  created_at: DefaultTimestamp;
  valid_until: ColumnType<Date, Date | string, Date | string>;
}

export interface JournalTable {
  id: Generated<number>;
  name: string;
  issn: string | null;
  publisher: string | null;
  url: string | null;
  created_at: DefaultTimestamp;
}

export interface OrderTables {
  journals: JournalTable;
  order_forms: OrderFormTable;
  orders: OrderTable;
  invoices: InvoiceTable;
  price_quotes: PriceQuoteTable;
  order_history: OrderHistoryTable;
  deliverables: DeliverableTable;
  certificates: CertificateTable;
  support_requests: SupportRequestTable;
  invoice_payments: InvoicePaymentTable;
}
