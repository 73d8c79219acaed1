// A payment as the rest of the portal sees it (issue 12, ADR 034): the payments row read (by id, any owner or
// one's own), where its researcher lands once it has an outcome, the language its pages speak, and the answer a
// page or the API gives for it in its current state. Every other payments file reads and answers through these,
// so a payment looks the same from the pay page, the provider's return, a notification and the staff console.
import { fail, type Result } from "#common/result";
import { paths } from "#common/paths";
import { isSiteLang, type SiteLang } from "#common/i18n";
import type { PaymentAnswer } from "#common/payments/types";
import { declineReason, type DeclineReason } from "#common/payments/declines";
import { fixedT } from "../i18n";
import type { AppContext } from "../context";
import type { DB } from "../db";
import type { Scope } from "../scope";
import type { Overpayment } from "../billing";
import type { NextAction } from "./providers/types";

export type PaymentPurpose = "order-form" | "invoices" | "prepay" | "digital";
export type PaymentStatus = "processing" | "pending" | "succeeded" | "failed" | "cancelled" | "refunded";

export interface PaymentRow {
  id: string;
  userId: number;
  purpose: PaymentPurpose;
  orderFormId: string | null;
  invoiceNumbers: string[];
  methodId: number;
  provider: string;
  sandbox: boolean;
  status: PaymentStatus;
  amount: number;
  currencyIso: string;
  exchangeRate: string | null;
  providerRef: string | null;
  nextAction: NextAction | null;
  error: string | null;
  refundedAmount: number;
  createdAt: Date;
  paidAt: Date | null;
  details: PaymentDetails;
}

/** What a payment remembers besides its amount (payments.details). */
export interface PaymentDetails {
  lang?: SiteLang;
  /** The order the wizard placed with this payment (its thank-you page is the landing). */
  orderExternalId?: string;
  /** Per invoice, the amount in the invoice's currency this payment pays (pay many in USD converts). */
  allocations?: { invoiceNumber: string; amount: number }[];
  billing?: Record<string, unknown> | null;
  taxId?: { type: string; number: string } | null;
  installments?: number | null;
  brazilChoice?: string | null;
  /** A failed charge's code as its provider gave it (Braintree's "2000", "91565"…): staff read it, the reason comes from it. */
  declineCode?: string | null;
  fapespProcessNumber?: string | null;
  /** Before ADR 051: money that arrived for nothing left to pay. Now an overpayment credit (`overpayments`). */
  unallocated?: number;
  /** Money captured beyond what was due, deposited on the researcher's overpayment credits (ADR 051). */
  overpayments?: Overpayment[];
  /** Staff refunds (ADR 051): how much came off the surplus, and the invoices re-opened when staff chose to. */
  refunds?: { amount: number; fromSurplus: number; reopened: { invoiceNumber: string; amount: number }[]; at: string }[];
  /** Issue 13: what the researcher's credits and prepayment put on the invoices (minor units of the payment). */
  creditsApplied?: number;
  prepaymentApplied?: number;
  /** A prepayment (purpose prepay): the retainer invoice it pays (issue 13, ADR 040). */
  retainerInvoiceNumber?: string;
  /** A digital purchase (purpose digital, issue 24): its receipt code and type, for the success page it returns to. */
  digitalReceiptCode?: string;
  digitalType?: "editing" | "translation";
  digitalOffer?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Row = {
  id: string;
  user_id: number;
  purpose: string;
  order_form_id: string | null;
  invoice_numbers: string[];
  method_id: number;
  provider: string;
  sandbox: boolean;
  status: string;
  amount: string | number;
  currency_iso: string;
  exchange_rate: string | null;
  provider_ref: string | null;
  next_action: Record<string, unknown> | null;
  error: string | null;
  refunded_amount: string | number;
  created_at: Date;
  paid_at: Date | null;
  details: Record<string, unknown>;
};

export function toPayment(r: Row): PaymentRow {
  return {
    id: r.id,
    userId: r.user_id,
    purpose: r.purpose as PaymentPurpose,
    orderFormId: r.order_form_id,
    invoiceNumbers: r.invoice_numbers ?? [],
    methodId: r.method_id,
    provider: r.provider,
    sandbox: r.sandbox,
    status: r.status as PaymentStatus,
    amount: Number(r.amount),
    currencyIso: r.currency_iso.trim(),
    exchangeRate: r.exchange_rate,
    providerRef: r.provider_ref,
    nextAction: r.next_action as NextAction | null,
    error: r.error,
    refundedAmount: Number(r.refunded_amount),
    createdAt: new Date(r.created_at),
    paidAt: r.paid_at ? new Date(r.paid_at) : null,
    details: (r.details ?? {}) as PaymentDetails,
  };
}

export async function readPayment(db: DB, id: string, lock = false): Promise<PaymentRow | null> {
  if (!UUID.test(id)) return null;
  let q = db.selectFrom("payments").selectAll().where("id", "=", id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toPayment(row as unknown as Row) : null;
}

/** A payment by id (any owner: provider returns and notifications, staff). */
export function findPayment(app: AppContext, id: string): Promise<PaymentRow | null> {
  return readPayment(app.db, id);
}

/** The signed-in user's own payment, else null (another user's payment is "not found"). */
export async function ownPayment(scope: Scope, id: string): Promise<PaymentRow | null> {
  const payment = await readPayment(scope.app.db, id);
  return payment && scope.userId !== null && payment.userId === scope.userId ? payment : null;
}

/** Where the researcher lands once a payment has an outcome (spec 2 §2 landings). */
export function paymentLanding(lang: SiteLang, payment: PaymentRow): string {
  const good = payment.status === "succeeded" || payment.status === "pending";
  if (payment.details.orderExternalId) return paths.orderThankYou(lang, payment.details.orderExternalId);
  if (payment.purpose === "prepay") return paths.prepayComplete(lang, good ? "success" : "error");
  if (payment.purpose === "digital" && payment.details.digitalReceiptCode) {
    const code = payment.details.digitalReceiptCode;
    if (payment.details.digitalType === "editing")
      return good ? paths.digitalEditingSubscribe(lang, code, true) : paths.digitalEditingSubscribe(lang);
    return good ? paths.digitalTranslationsPurchase(lang, code, true) : paths.digitalTranslationsPurchase(lang);
  }
  return paths.invoicesUnpaidLanding(lang, good ? "success" : "error");
}

/** The language a payment's pages speak: the one it was made in. */
export const paymentLang = (payment: PaymentRow): SiteLang => (isSiteLang(payment.details.lang) ? payment.details.lang : "en");

/** The answer to the page or the API for a payment in its current state. */
export function paymentAnswer(payment: PaymentRow): PaymentAnswer {
  const lang = paymentLang(payment);
  const base = { paymentId: payment.id, redirectForm: null, error: null };
  if (payment.status === "failed" || payment.status === "cancelled")
    return { ...base, status: "failed", redirectUrl: null, error: declineReasonOf(payment) };
  if (payment.status === "pending" && payment.nextAction) {
    const next = payment.nextAction;
    if (next.kind === "redirect") return { ...base, status: "pending", redirectUrl: next.url };
    if (next.kind === "form")
      return {
        ...base,
        status: "pending",
        redirectUrl: null,
        redirectForm: { action: next.action, method: next.method, fields: next.fields },
      };
    return { ...base, status: "pending", redirectUrl: paths.paymentPending(lang, payment.id) };
  }
  return { ...base, status: payment.status === "pending" ? "pending" : "succeeded", redirectUrl: paymentLanding(lang, payment) };
}

/** Declines and settled payments are the request's answer (replayed); refusals of the input are not (ADR 034). */
export const keepResult = (r: Result<PaymentAnswer>) => r.ok || r.error === "payment-declined";

/** Why a failed payment failed, as a reason the researcher's pages word in their language (`payment:declines.*`). */
export function declineReasonOf(payment: Pick<PaymentRow, "provider" | "error" | "details" | "status">): DeclineReason {
  if (payment.status === "cancelled" && !payment.error) return "cancelled";
  return declineReason(payment.provider, payment.details.declineCode, payment.error);
}

/**
 * A decline's answer: its `reason` (payment:declines.<reason>) and `message`, that reason in the payment's language.
 * The provider's own text and code ("Do Not Honor", 2000) stay on the payment for staff, never in the answer.
 */
export function declined(payment: PaymentRow): Result<PaymentAnswer> {
  const reason = declineReasonOf(payment);
  const message = String(fixedT(paymentLang(payment), "payment")(`declines.${reason}`));
  return fail("payment-declined", { reason, message, paymentId: payment.id });
}
