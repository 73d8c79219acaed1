// What a researcher paid beyond an invoice's amount (issue 21 §2, ADR 051): the overpayment credits the settling
// payments deposited, and how much of each staff refunded since. Read here, not through the balances area (which
// imports invoices), so the invoice pages, the list and the receipt can say where the surplus went.
import { sql } from "kysely";
import { formatMoney, type CurrencyFormat } from "#common/format";
import type { DB } from "../../db";

export interface Surplus {
  currencyIso: string;
  currency: CurrencyFormat;
  /** Minor units deposited on the researcher's overpayment credits. */
  amount: number;
  /** Minor units of it refunded by staff (taken back off the credits). */
  refunded: number;
  creditNumbers: string[];
}

interface SurplusRow {
  payment_id: string;
  invoice_numbers: unknown;
  currency_iso: string;
  sign: string;
  num_decimals: number;
  reference_number: string;
  amount: string;
  refunded: string;
}

async function rows(db: DB, where: { paymentIds?: string[]; userId?: number; invoiceNumbers?: string[] }): Promise<SurplusRow[]> {
  let q = db
    .selectFrom("balance_movements as d")
    .innerJoin("credits as c", "c.id", "d.credit_id")
    .innerJoin("payments as p", "p.id", "d.payment_id")
    .innerJoin("currencies as cur", "cur.iso_code", "c.currency_iso")
    .select([
      "cur.sign",
      "cur.num_decimals",
      "p.id as payment_id",
      "p.invoice_numbers",
      "c.currency_iso",
      "c.reference_number",
      sql<string>`d.amount::text`.as("amount"),
      sql<string>`coalesce((select -sum(r.amount) from balance_movements r where r.credit_id = c.id and r.kind = 'refund'), 0)::text`.as(
        "refunded",
      ),
    ])
    .where("d.kind", "=", "overpayment")
    .orderBy("c.id");
  if (where.paymentIds) q = q.where("p.id", "in", where.paymentIds);
  if (where.userId !== undefined) q = q.where("p.user_id", "=", where.userId);
  if (where.invoiceNumbers) q = q.where(sql<boolean>`p.invoice_numbers ?| ${sql.val(where.invoiceNumbers)}::text[]`);
  return (await q.execute()) as SurplusRow[];
}

function add(list: Surplus[], r: SurplusRow): Surplus[] {
  const currencyIso = r.currency_iso.trim();
  const s = list.find((x) => x.currencyIso === currencyIso);
  if (s) {
    s.amount += Number(r.amount);
    s.refunded += Number(r.refunded);
    s.creditNumbers.push(r.reference_number);
    return list;
  }
  const currency = { isoCode: currencyIso, sign: r.sign, numDecimals: r.num_decimals };
  return [...list, { currencyIso, currency, amount: Number(r.amount), refunded: Number(r.refunded), creditNumbers: [r.reference_number] }];
}

/** The surplus of each of these payments (a receipt names its payment's), per currency. */
export async function surplusOfPayments(db: DB, paymentIds: string[]): Promise<Map<string, Surplus[]>> {
  const out = new Map<string, Surplus[]>();
  if (!paymentIds.length) return out;
  for (const r of await rows(db, { paymentIds })) out.set(r.payment_id, add(out.get(r.payment_id) ?? [], r));
  return out;
}

/**
 * The surplus of the payments that paid these invoices of the user, per invoice. A payment of several invoices
 * overpaid once: its surplus is shown on the first of them only, so no amount is counted twice.
 */
export async function surplusOfInvoices(db: DB, userId: number, invoiceNumbers: string[]): Promise<Map<string, Surplus[]>> {
  const out = new Map<string, Surplus[]>();
  if (!invoiceNumbers.length) return out;
  for (const r of await rows(db, { userId, invoiceNumbers })) {
    const list = (typeof r.invoice_numbers === "string" ? JSON.parse(r.invoice_numbers) : r.invoice_numbers) as string[];
    const first = list.find((n) => invoiceNumbers.includes(n));
    if (first) out.set(first, add(out.get(first) ?? [], r));
  }
  return out;
}

/** Which sentence says where a surplus went (`invoices:surplus.*`): credited, refunded, or part of each. */
export function surplusKey(s: Surplus): "credited" | "refunded" | "partlyRefunded" {
  if (s.refunded <= 0) return "credited";
  return s.amount - s.refunded <= 0 ? "refunded" : "partlyRefunded";
}

/** The sentence's values: the surplus, what stays credited, what was refunded, the credits' numbers. */
export function surplusValues(s: Surplus): Record<string, string> {
  return {
    amount: formatMoney(s.amount, s.currency),
    credited: formatMoney(Math.max(0, s.amount - s.refunded), s.currency),
    refunded: formatMoney(s.refunded, s.currency),
    credit: s.creditNumbers.join(", "),
  };
}
