// Creating a payment attempt (issue 12, ADR 034): the payments row, `processing` under its lease from the start
// (ADR 051: a process that dies before the provider answers leaves a row the recovery job finds), and what it
// remembers of the submission (billing address, tax id, instalments, language). Every purpose (invoices, the
// wizard's order form, a prepayment) creates its attempt here, inside the transaction that holds its locks.
import type { PaymentSubmission } from "#common/payments/types";
import type { DB } from "../db";
import type { Scope } from "../scope";
import { leaseUntil } from "./attempts";
import type { PaymentProvider } from "./providers/types";
import { type PaymentDetails, type PaymentPurpose, type PaymentRow, type Row, toPayment } from "./read";

export interface NewPayment {
  userId: number;
  impersonatorId: number | null;
  purpose: PaymentPurpose;
  orderFormId: string | null;
  invoiceNumbers: string[];
  methodId: number;
  provider: PaymentProvider;
  amount: number;
  currencyIso: string;
  exchangeRate: string | null;
  details: PaymentDetails;
}

export async function insertPayment(trx: DB, p: NewPayment): Promise<PaymentRow> {
  const row = await trx
    .insertInto("payments")
    .values({
      user_id: p.userId,
      impersonator_id: p.impersonatorId,
      purpose: p.purpose,
      order_form_id: p.orderFormId,
      invoice_numbers: JSON.stringify(p.invoiceNumbers),
      method_id: p.methodId,
      provider: p.provider.id,
      sandbox: p.provider.sandbox,
      status: "processing",
      lease_until: leaseUntil(),
      amount: p.amount,
      currency_iso: p.currencyIso,
      exchange_rate: p.exchangeRate,
      details: JSON.stringify(p.details),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPayment(row as unknown as Row);
}

export function billingOf(s: PaymentSubmission): Record<string, unknown> | null {
  const address = s.address ?? null;
  const invoice = s.invoiceAddressSameAsBilling ? address : (s.invoiceAddress ?? address);
  return invoice ? { ...invoice, vat: invoice.vat ?? null } : null;
}

export function detailsOf(scope: Scope, s: PaymentSubmission, extra: PaymentDetails): PaymentDetails {
  return {
    lang: scope.lang,
    billing: billingOf(s),
    taxId: s.taxId,
    installments: s.installments,
    brazilChoice: s.brazilChoice,
    fapespProcessNumber: s.fapespProcessNumber,
    ...extra,
  };
}
