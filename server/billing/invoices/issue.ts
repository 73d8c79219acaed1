// Invoices (spec 3, ADR 058), one model with a kind. An order's: numbered INV…, one per order billed by invoice,
// due in 30 days, issued inside the transaction that places the order, so an order and its invoice exist together
// or not at all. A prepayment's: numbered P<localisation>…, for the amount the researcher chose.
import { sql } from "kysely";
import type { DB } from "../../db";
import { convertMinor, USD } from "#common/money";
import type { LegalEntity } from "./entity";

export const INVOICE_DUE_DAYS = 30;

export interface InvoiceInput {
  orderId: number;
  userId: number;
  currencyIso: string;
  /** Minor units. */
  amount: number;
  /** The language and localisation the invoice is issued in (its PDF); the buyer's details at issue. */
  lang?: string | null;
  localization?: string | null;
  purchaseOrder?: string | null;
  billing?: Record<string, unknown> | null;
  fapespProcessNumber?: string | null;
  grantNumber?: string | null;
  /** Who issues it (ADR 052): copied onto the invoice, printed from that copy ever after. */
  legalEntity: LegalEntity;
  /** Units of `currencyIso` per 1 USD the amount was priced at (the price's rate); "1" or absent for USD. */
  exchangeRate?: string | null;
  /** Decimals of `currencyIso` (the USD base is computed from them); read from `currencies` when absent. */
  numDecimals?: number;
}

/** Issues the unpaid invoice of an order (within the caller's transaction); returns its number. */
export async function issueInvoice(trx: DB, input: InvoiceInput, now = new Date()): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('invoice_number_seq')::text as n`.execute(trx);
  const number = `INV${rows[0].n}`;
  // The USD base and the rate are kept with the invoice (issue 21 §2): a converted invoice prints both.
  const base = await usdBaseAtIssue(trx, input.currencyIso, input.amount, input.exchangeRate, input.numDecimals);
  await trx
    .insertInto("invoices")
    .values({
      number,
      order_id: input.orderId,
      user_id: input.userId,
      currency_iso: input.currencyIso,
      amount: input.amount,
      balance: input.amount,
      status: "unpaid",
      lang: input.lang ?? null,
      localization: input.localization ?? null,
      purchase_order: input.purchaseOrder ?? null,
      billing: input.billing ? JSON.stringify(input.billing) : null,
      fapesp_process_number: input.fapespProcessNumber ?? null,
      grant_number: input.grantNumber ?? null,
      legal_entity: JSON.stringify(input.legalEntity),
      exchange_rate: base.exchangeRate,
      usd_total: base.usdTotal,
      due_at: new Date(now.getTime() + INVOICE_DUE_DAYS * 24 * 3600 * 1000),
    })
    .execute();
  return number;
}

export interface PrepaymentInvoiceInput {
  userId: number;
  /** The issuing localisation (US, CN, BR): the number's letters and the legal entity. */
  localization: string;
  lang: string | null;
  currencyIso: string;
  /** Minor units, > 0. */
  amount: number;
  methodId: number | null;
  billing: Record<string, unknown> | null;
  purchaseOrder: string | null;
  fapespProcessNumber: string | null;
  legalEntity: LegalEntity;
  /**
   * `digital` (issue 24, ADR 073): a digital purchase's invoice — the same numbering with "D" for "P" (DUS100003),
   * no order, credited like any other; the digital area activates its purchase on `invoiceSettled`. Default prepayment.
   */
  kind?: "prepayment" | "digital";
}

/**
 * Issues an unpaid prepayment invoice (kind `prepayment`, no order; ADR 058) in the caller's transaction: "P" + the
 * localisation + the prepayment numbering (PUS100001), the numbering retainer invoices had before 0036. Once paid
 * in full its money becomes a prepaid balance (prepay's `invoiceSettled` handler). Returns its number.
 */
export async function issuePrepaymentInvoice(trx: DB, input: PrepaymentInvoiceInput): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('prepayment_invoice_number_seq')::text as n`.execute(trx);
  const kind = input.kind ?? "prepayment";
  const number = `${kind === "digital" ? "D" : "P"}${input.localization.toUpperCase()}${rows[0].n}`;
  const base = await usdBaseAtIssue(trx, input.currencyIso, input.amount);
  await trx
    .insertInto("invoices")
    .values({
      number,
      kind,
      order_id: null,
      user_id: input.userId,
      localization: input.localization,
      lang: input.lang,
      currency_iso: input.currencyIso,
      amount: input.amount,
      balance: input.amount,
      status: "unpaid",
      method_id: input.methodId,
      billing: input.billing ? JSON.stringify(input.billing) : null,
      purchase_order: input.purchaseOrder,
      fapesp_process_number: input.fapespProcessNumber,
      // Who issues it and at what rate, fixed now (ADR 052).
      legal_entity: JSON.stringify(input.legalEntity),
      exchange_rate: base.exchangeRate,
      usd_total: base.usdTotal,
    })
    .execute();
  return number;
}

/**
 * What a document issued now in `currencyIso` keeps of USD (ADR 052): the rate (units per 1 USD; the one its price
 * was computed with when given, else today's) and the amount in USD cents at it. Both null when no rate is known.
 */
export async function usdBaseAtIssue(
  trx: DB,
  currencyIso: string,
  amount: number,
  pricedAt?: string | null,
  numDecimals?: number,
): Promise<{ exchangeRate: string | null; usdTotal: number | null }> {
  if (currencyIso === "USD") return { exchangeRate: "1", usdTotal: amount };
  const [rate, currency] = await Promise.all([
    pricedAt
      ? Promise.resolve({ rate: pricedAt })
      : trx
          .selectFrom("exchange_rates")
          .select(sql<string>`rate::text`.as("rate"))
          .where("iso_code", "=", currencyIso)
          .where("effective_on", "<=", sql<string>`current_date`)
          .orderBy("effective_on", "desc")
          .executeTakeFirst(),
    numDecimals === undefined
      ? trx.selectFrom("currencies").select("num_decimals").where("iso_code", "=", currencyIso).executeTakeFirst()
      : Promise.resolve({ num_decimals: numDecimals }),
  ]);
  if (!rate || !currency) return { exchangeRate: null, usdTotal: null };
  return {
    exchangeRate: rate.rate,
    usdTotal: convertMinor(amount, { isoCode: currencyIso, numDecimals: currency.num_decimals, rate: rate.rate }, USD),
  };
}

/** The number of an order's invoice, or null when the order has none. */
export async function invoiceNumberOf(db: DB, orderId: number): Promise<string | null> {
  const invoice = await db
    .selectFrom("invoices")
    .select("number")
    .where("kind", "=", "order")
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  return invoice?.number ?? null;
}
