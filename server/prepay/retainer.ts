// Retainer invoices (issue 13 §1, spec 2 §2 "Prepay", §5, ADR 040, ADR 058): a prepayment is billing's invoice of
// kind `prepayment` issued for the amount the researcher typed, in their currency, numbered "P" + the localisation
// + a sequence (PCN100001). It is paid like any invoice (a provider payment settled by server/payments, or a bank
// transfer staff record, both through billing's creditInvoice) and, once nothing is owed on it, its money becomes a
// prepaid balance (prepay's invoiceSettled handler, billing-handlers.ts).
import { fail, invalid, ok, type Result } from "#common/result";
import { formatMoney, type CurrencyFormat } from "#common/format";
import { PREPAY_AMOUNT_MAX_MAJOR, PREPAY_AMOUNT_MAX_LENGTH } from "#common/prepay/schemas";
import type { DB } from "../db";
import type { Scope } from "../scope";
import { issuePrepaymentInvoice, issuingEntity } from "../billing";
import { minorOf, parseMajor } from "#common/money";

/** Minimum prepayment when the currency has none configured (spec 2 §9): 100 major units. */
export const DEFAULT_PREPAY_MINIMUM = 100;

export interface PrepayAccount {
  userId: number;
  currency: CurrencyFormat;
  /** The researcher chose their currency (users.currency_chosen); else the chooser comes first. */
  currencyChosen: boolean;
  /** Invoices, credits and prepayments are hidden from this account (spec 2 §6 hideInvoices). */
  hideInvoices: boolean;
  countryIso2: string | null;
}

/** The signed-in user's facts the prepay pages need, or null for a visitor. */
export async function prepayAccount(scope: Scope): Promise<PrepayAccount | null> {
  if (scope.userId === null) return null;
  const r = await scope.app.db
    .selectFrom("users as u")
    .innerJoin("currencies as c", "c.iso_code", "u.currency_iso")
    .leftJoin("countries as k", "k.id", "u.country_id")
    .select(["u.id", "u.currency_iso", "u.currency_chosen", "u.hide_invoices", "c.sign", "c.num_decimals", "k.iso2"])
    .where("u.id", "=", scope.userId)
    .executeTakeFirst();
  if (!r) return null;
  return {
    userId: r.id,
    currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    currencyChosen: r.currency_chosen,
    hideInvoices: r.hide_invoices,
    countryIso2: r.iso2 ?? null,
  };
}

/** The smallest prepayment in `currency`, minor units (config prepayMinimums, major units; default 100). */
export async function prepayMinimum(scope: Scope, currency: CurrencyFormat): Promise<number> {
  const { config } = await scope.app.config.snapshot();
  const configured = (config.prepayMinimums as Record<string, number>)[currency.isoCode];
  const major = typeof configured === "number" && Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_PREPAY_MINIMUM;
  return minorOf(major, currency.numDecimals);
}

/**
 * A typed amount (major units of the user's currency) as minor units. Errors on `amount`:
 * `prepay:errors.amount-invalid` (not an amount, too many decimals, too large) and `prepay:errors.amount-minimum`
 * ('The amount needs to be more than {{price}}', the price in `details.price`).
 */
export async function checkPrepayAmount(scope: Scope, account: PrepayAccount, input: string): Promise<Result<number>> {
  const text = input.trim();
  const amount = text.length > PREPAY_AMOUNT_MAX_LENGTH ? null : parseMajor(text, account.currency.numDecimals);
  if (amount === null || amount > minorOf(PREPAY_AMOUNT_MAX_MAJOR, account.currency.numDecimals))
    return invalid({ amount: "prepay:errors.amount-invalid" });
  const minimum = await prepayMinimum(scope, account.currency);
  if (amount < minimum)
    return { ...invalid({ amount: "prepay:errors.amount-minimum" }), details: { price: formatMoney(minimum, account.currency) } };
  return ok(amount);
}

export interface RetainerRow {
  number: string;
  user_id: number;
  localization: string;
  lang: string | null;
  currency_iso: string;
  amount: string;
  balance: string;
  status: "unpaid" | "paid" | "void";
  method_id: number | null;
  created_at: Date;
  paid_at: Date | null;
}

export interface NewRetainer {
  userId: number;
  currencyIso: string;
  amount: number;
  methodId: number | null;
  billing: Record<string, unknown> | null;
  purchaseOrder: string | null;
  fapespProcessNumber: string | null;
}

/** The columns a RetainerRow is read from, and the row as the domain uses it (ISO codes are char(3), padded). */
const RETAINER_COLUMNS = [
  "number",
  "user_id",
  "localization",
  "lang",
  "currency_iso",
  "amount",
  "balance",
  "status",
  "method_id",
  "created_at",
  "paid_at",
] as const;
const toRetainer = (row: { currency_iso: string; localization: string | null }): RetainerRow =>
  ({ ...row, localization: row.localization ?? "US", currency_iso: row.currency_iso.trim() }) as RetainerRow;

/**
 * Issues a retainer invoice (unpaid) in `trx`: billing's prepayment invoice (kind `prepayment`, ADR 058), "P" + the
 * scope's localisation + the next number, issued by the scope's legal entity at today's rate (ADR 052).
 */
export async function issueRetainer(trx: DB, scope: Scope, r: NewRetainer): Promise<RetainerRow> {
  const number = await issuePrepaymentInvoice(trx, {
    userId: r.userId,
    localization: scope.localization,
    lang: scope.lang,
    currencyIso: r.currencyIso,
    amount: r.amount,
    methodId: r.methodId,
    billing: r.billing,
    purchaseOrder: r.purchaseOrder,
    fapespProcessNumber: r.fapespProcessNumber,
    legalEntity: await issuingEntity(scope.app, scope.localization),
  });
  return (await lockRetainer(trx, number))!;
}

/** A retainer (prepayment) invoice locked for the rest of `trx` (every change of its balance starts here). */
export async function lockRetainer(trx: DB, number: string): Promise<RetainerRow | null> {
  if (!validNumber(number)) return null;
  const row = await trx
    .selectFrom("invoices")
    .select(RETAINER_COLUMNS)
    .where("number", "=", number)
    .where("kind", "=", "prepayment")
    .forUpdate()
    .executeTakeFirst();
  return row ? toRetainer(row) : null;
}

/** A retainer number as issued: "P", letters, digits; anything else is not looked up. */
export const validNumber = (number: string) => /^P[A-Z]{2,4}\d{1,18}$/.test(number);

/** The signed-in user's own unpaid retainer invoice, else `not-found` (another user's, paid, void, hidden). */
export async function ownUnpaidRetainer(scope: Scope, number: string): Promise<Result<RetainerRow>> {
  const account = await prepayAccount(scope);
  if (!account || account.hideInvoices || !validNumber(number)) return fail("not-found");
  const row = await scope.app.db
    .selectFrom("invoices")
    .select(RETAINER_COLUMNS)
    .where("number", "=", number)
    .where("kind", "=", "prepayment")
    .where("user_id", "=", account.userId)
    .executeTakeFirst();
  if (!row || row.status !== "unpaid" || Number(row.balance) <= 0) return fail("not-found");
  return ok(toRetainer(row));
}
