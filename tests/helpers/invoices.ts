// Invoice test data the factories do not make yet: a provider payment's ledger row (sandbox or live, in another
// currency with its exchange rate) and a pending boleto. Rows as the payments service writes them (0030), since
// that service and its providers are another area's; the invoice's own balance is moved as recordBankPayment does.
import { extractText, getDocumentProxy } from "unpdf";
import type { AppContext } from "#server/context";

export async function recordProviderPayment(
  ctx: AppContext,
  invoiceNumber: string,
  input: { amount: number; methodId: number; sandbox: boolean; paidAmount?: number; paidCurrency?: string; exchangeRate?: string },
): Promise<{ ledgerId: string; paymentId: string }> {
  const invoice = await ctx.db.selectFrom("invoices").selectAll().where("number", "=", invoiceNumber).executeTakeFirstOrThrow();
  const payment = await ctx.db
    .insertInto("payments")
    .values({
      user_id: invoice.user_id,
      purpose: "invoices",
      invoice_numbers: JSON.stringify([invoiceNumber]),
      method_id: input.methodId,
      provider: "card",
      sandbox: input.sandbox,
      status: "succeeded",
      amount: input.paidAmount ?? input.amount,
      currency_iso: input.paidCurrency ?? invoice.currency_iso,
      exchange_rate: input.exchangeRate ?? null,
      paid_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const ledger = await ctx.db
    .insertInto("invoice_payments")
    .values({
      invoice_number: invoiceNumber,
      amount: input.amount,
      currency_iso: invoice.currency_iso,
      payment_method_id: input.methodId,
      reference: `card-${payment.id.slice(0, 8)}`,
      received_on: new Date().toISOString().slice(0, 10),
      payment_id: payment.id,
      paid_amount: input.paidAmount ?? null,
      paid_currency_iso: input.paidCurrency ?? null,
      exchange_rate: input.exchangeRate ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const balance = Number(invoice.balance) - input.amount;
  await ctx.db
    .updateTable("invoices")
    .set({ balance, status: balance === 0 ? "paid" : invoice.status })
    .where("number", "=", invoiceNumber)
    .execute();
  return { ledgerId: String(ledger.id), paymentId: payment.id };
}

/** A boleto issued for `invoiceNumbers`, awaiting payment (status pending). */
export async function pendingBoleto(ctx: AppContext, userId: number, invoiceNumbers: string[]): Promise<string> {
  const p = await ctx.db
    .insertInto("payments")
    .values({
      user_id: userId,
      purpose: "invoices",
      invoice_numbers: JSON.stringify(invoiceNumbers),
      method_id: 20,
      provider: "boleto",
      status: "pending",
      amount: 1000,
      currency_iso: "BRL",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return p.id;
}

/** The text of a PDF, without the spaces pdf.js puts between runs (CJK text has none of its own). */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, "");
}
