// The USD base and rate a converted invoice was issued at (ADR 052), as stored on it: what the invoice list, the pay
// page and the staff pages print beside a BRL/CNY/JPY amount. Never today's rate: the invoice's own.
import { sql } from "kysely";
import type { Scope } from "../../scope";

export interface UsdBase {
  /** The invoice's total in USD cents at issue. */
  usdTotal: number;
  /** Units of the invoice's currency per 1 USD, as stored ("5.60000000"). */
  exchangeRate: string;
  currencyIso: string;
}

/** The stored USD base of each of the user's own converted invoices among `numbers` (USD invoices and others' absent). */
export async function invoiceUsdBases(scope: Scope, numbers: string[]): Promise<Record<string, UsdBase>> {
  if (scope.userId === null || numbers.length === 0) return {};
  const rows = await scope.app.db
    .selectFrom("invoices")
    .select(["number", "currency_iso", "usd_total", sql<string | null>`exchange_rate::text`.as("exchange_rate")])
    .where("user_id", "=", scope.userId)
    .where("number", "in", numbers)
    .where("currency_iso", "<>", "USD")
    .where("usd_total", "is not", null)
    .where("exchange_rate", "is not", null)
    .execute();
  return Object.fromEntries(
    rows.map((r) => [r.number, { usdTotal: Number(r.usd_total), exchangeRate: r.exchange_rate!, currencyIso: r.currency_iso.trim() }]),
  );
}
