// Prepaid and credit balances (issue 13 §3, ADR 039). A balance is never a stored number: it is the sum of its
// balance_movements rows (deposit +, spend −, expire −, reversal +/−). Spending locks the accounts' rows
// (prepayment invoices / credits, `for update`, always in the same order) before it sums them, so spends of one
// user queue and each sees what the one before left: a balance cannot go below 0 however many run at once.
// Money reaches an invoice only through creditInvoice (server/invoices/payments.ts), one ledger row there per
// account spent, naming the account.
import { sql } from "kysely";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { DB } from "../../db";
import { convertMinor, crossRate, type CurrencyRate } from "#common/money";
import { currencyRate, type Catalogue } from "../../catalogue";
import { creditInvoice, type LockedInvoice } from "../invoices/payments";
import type { Actor } from "../../kernel/actor";
import type { CreditKind } from "../../../db/types-prepay";

export type AccountKind = "prepayment" | "credit";

export interface BalanceAccount {
  account: AccountKind;
  /** The retainer invoice's number, or the credit's reference number. */
  number: string;
  /** credits.id for a credit; null for a prepayment (its number is its key). */
  creditId: number | null;
  currencyIso: string;
  /** What was deposited (minor units). */
  total: number;
  /** What can still be spent (minor units): the sum of the account's movements; 0 once expired. */
  available: number;
  expiresAt: Date | null;
  createdAt: Date;
}

const n = (v: string | number | bigint | null | undefined) => Number(v ?? 0);

/**
 * The user's prepayments (paid retainer invoices) and credits with what is left on each, oldest-expiring
 * first (then oldest). An expired account shows 0 available even before the expiry job wrote its row.
 */
export async function userBalances(
  db: DB,
  userId: number,
  now = new Date(),
): Promise<{ prepayments: BalanceAccount[]; credits: BalanceAccount[] }> {
  const [prepaid, credits] = await Promise.all([
    db
      .selectFrom("invoices as r")
      .select([
        "r.number",
        "r.currency_iso",
        "r.amount",
        "r.expires_at",
        "r.created_at",
        (eb) =>
          eb
            .selectFrom("balance_movements as m")
            .select(sql<string>`coalesce(sum(m.amount), 0)::text`.as("s"))
            .whereRef("m.retainer_invoice_number", "=", "r.number")
            .as("available"),
      ])
      .where("r.user_id", "=", userId)
      .where("r.kind", "=", "prepayment")
      .where("r.status", "=", "paid")
      .execute(),
    db
      .selectFrom("credits as c")
      .select([
        "c.id",
        "c.reference_number",
        "c.currency_iso",
        "c.amount",
        "c.expires_at",
        "c.created_at",
        (eb) =>
          eb
            .selectFrom("balance_movements as m")
            .select(sql<string>`coalesce(sum(m.amount), 0)::text`.as("s"))
            .whereRef("m.credit_id", "=", "c.id")
            .as("available"),
      ])
      .where("c.user_id", "=", userId)
      .execute(),
  ]);
  const live = (expiresAt: Date | null) => !expiresAt || new Date(expiresAt).getTime() > now.getTime();
  const order = (a: BalanceAccount, b: BalanceAccount) =>
    (a.expiresAt?.getTime() ?? Infinity) - (b.expiresAt?.getTime() ?? Infinity) ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.number < b.number ? -1 : 1);
  return {
    prepayments: prepaid
      .map((r) => ({
        account: "prepayment" as const,
        number: r.number,
        creditId: null,
        currencyIso: r.currency_iso.trim(),
        total: n(r.amount),
        available: live(r.expires_at) ? n(r.available) : 0,
        expiresAt: r.expires_at ? new Date(r.expires_at) : null,
        createdAt: new Date(r.created_at),
      }))
      .sort(order),
    credits: credits
      .map((c) => ({
        account: "credit" as const,
        number: c.reference_number,
        creditId: c.id,
        currencyIso: c.currency_iso.trim(),
        total: n(c.amount),
        available: live(c.expires_at) ? n(c.available) : 0,
        expiresAt: new Date(c.expires_at),
        createdAt: new Date(c.created_at),
      }))
      .sort(order),
  };
}

/** The sum of usable balances of one kind in `currencyIso` (each account converted at the day's rate). */
export function totalIn(accounts: BalanceAccount[], currency: CurrencyRate, catalogue: Catalogue, now = new Date()): number {
  let total = 0;
  for (const a of accounts) {
    if (a.available <= 0) continue;
    const from = currencyRate(catalogue, a.currencyIso, now);
    if (from) total += convertMinor(a.available, from, currency);
  }
  return total;
}

// ─── Deposits ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Makes a paid retainer invoice's money spendable: its one deposit row (a second call finds it and does
 * nothing). The caller holds the retainer invoice's row lock.
 */
export async function depositPrepayment(
  trx: DB,
  retainer: { number: string; user_id: number; amount: string | number },
  actor: Actor,
  paymentId: string | null = null,
): Promise<boolean> {
  const done = await trx
    .selectFrom("balance_movements")
    .select("id")
    .where("retainer_invoice_number", "=", retainer.number)
    .where("kind", "=", "deposit")
    .executeTakeFirst();
  if (done) return false;
  await trx
    .insertInto("balance_movements")
    .values({
      user_id: retainer.user_id,
      retainer_invoice_number: retainer.number,
      amount: n(retainer.amount),
      kind: "deposit",
      payment_id: paymentId,
      actor_user_id: actor.userId ?? null,
    })
    .execute();
  return true;
}

export interface NewCredit {
  userId: number;
  currencyIso: string;
  /** Minor units, > 0. */
  amount: number;
  kind: CreditKind;
  note?: string | null;
  expiresAt: Date;
  grantedBy?: number | null;
}

/** Creates a credit and its deposit row; returns its id and reference number (CR100001). */
export async function grantCredit(trx: DB, c: NewCredit): Promise<{ id: number; referenceNumber: string }> {
  const row = await trx
    .insertInto("credits")
    .values({
      user_id: c.userId,
      reference_number: sql<string>`'CR' || nextval('credit_reference_seq')`,
      currency_iso: c.currencyIso,
      amount: c.amount,
      kind: c.kind,
      note: c.note ?? null,
      expires_at: c.expiresAt,
      granted_by: c.grantedBy ?? null,
    })
    .returning(["id", "reference_number"])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("balance_movements")
    .values({
      user_id: c.userId,
      credit_id: row.id,
      amount: c.amount,
      kind: "deposit",
      note: c.note ?? null,
      actor_user_id: c.grantedBy ?? null,
    })
    .execute();
  return { id: row.id, referenceNumber: row.reference_number };
}

// ─── Spending ───────────────────────────────────────────────────────────────────────────────────────────────

export interface SpendRequest {
  userId: number;
  /** The invoice paid, locked by the caller (lockInvoice) in this transaction. Its balance is updated here. */
  invoice: LockedInvoice;
  /** Which balances: the user's credits, the user's prepayments, or one prepayment. */
  from: "credits" | "prepayments" | { retainerInvoiceNumber: string };
  /** The most to put on the invoice (minor units of the invoice's currency); at most its balance is used. */
  max: number;
  paymentId?: string | null;
  actor: Actor;
  catalogue: Catalogue;
  now?: Date;
  /**
   * Hold the balances for a charge instead of spending them (ADR 051): `reserve` movements that count against
   * what is available but put nothing on the invoice (which need not exist yet: number "" for an order still to
   * be placed). The charge's outcome turns them into spends (server/payments/reserve.ts) or releases them.
   */
  reserve?: boolean;
}

export interface Spent {
  /** Put on the invoice, minor units of its currency. */
  amount: number;
  movements: { id: string; number: string; amount: number; currencyIso: string; invoiceAmount: number }[];
  /** The invoice's balance after. */
  balance: number;
}

/**
 * Spends balances on an invoice, oldest-expiring account first: for each account a spend row (negative, in
 * the account's currency, with the invoice amount and the rate) and an invoice ledger row through
 * creditInvoice. Never more than an account holds, the invoice's balance or `max`.
 */
export async function spendOnInvoice(trx: DB, req: SpendRequest): Promise<Spent> {
  const now = req.now ?? new Date();
  const accounts = await lockAccounts(trx, req.userId, req.from, now);
  const invoiceIso = req.invoice.currency_iso.trim();
  const target = currencyRate(req.catalogue, invoiceIso, now);
  let left = Math.min(req.max, n(req.invoice.balance));
  const spent: Spent = { amount: 0, movements: [], balance: n(req.invoice.balance) };
  if (!target || left <= 0) return spent;
  const today = now.toISOString().slice(0, 10);
  for (const a of accounts) {
    if (left <= 0) break;
    if (a.available <= 0) continue;
    const source = currencyRate(req.catalogue, a.currencyIso, now);
    if (!source) continue;
    // What the account is worth on this invoice, what that part costs the account (never more than it holds).
    const take = Math.min(left, convertMinor(a.available, source, target));
    if (take <= 0) continue;
    const cost = Math.min(a.available, Math.max(1, convertMinor(take, target, source)));
    const rate = source.isoCode === target.isoCode ? null : rateBetween(source, target);
    const movement = await trx
      .insertInto("balance_movements")
      .values({
        user_id: req.userId,
        retainer_invoice_number: a.account === "prepayment" ? a.number : null,
        credit_id: a.account === "credit" ? a.creditId : null,
        amount: -cost,
        kind: req.reserve ? "reserve" : "spend",
        invoice_number: req.invoice.number || null,
        invoice_amount: take,
        exchange_rate: rate,
        payment_id: req.paymentId ?? null,
        actor_user_id: req.actor.userId ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!req.reserve)
      await creditInvoice(
        trx,
        { ...req.invoice, balance: spent.balance },
        {
          amount: take,
          paymentMethodId: PAYMENT_METHOD.credits,
          reference: `${a.account}:${a.number}:${movement.id}`,
          receivedOn: today,
          paymentId: req.paymentId ?? null,
          paidAmount: rate ? cost : null,
          paidCurrencyIso: rate ? a.currencyIso : null,
          exchangeRate: rate,
        },
        req.actor,
      );
    spent.balance -= take;
    spent.amount += take;
    left -= take;
    spent.movements.push({ id: String(movement.id), number: a.number, amount: cost, currencyIso: a.currencyIso, invoiceAmount: take });
  }
  if (!req.reserve) req.invoice.balance = spent.balance;
  return spent;
}

/** Units of `to` per 1 unit of `from` at these rates (8 decimals), as stored with a movement. */
const rateBetween = (from: CurrencyRate, to: CurrencyRate): string => crossRate(from, to, 8);

/**
 * The accounts a spend may use, their rows locked in one fixed order (expiry, creation, key) so concurrent
 * spends of one user never deadlock, each with its available amount summed after the lock.
 */
async function lockAccounts(trx: DB, userId: number, from: SpendRequest["from"], now: Date): Promise<BalanceAccount[]> {
  if (from === "credits") {
    const rows = await trx
      .selectFrom("credits")
      .select(["id", "reference_number", "currency_iso", "amount", "expires_at", "created_at"])
      .where("user_id", "=", userId)
      .where("expires_at", ">", now)
      .orderBy("expires_at")
      .orderBy("created_at")
      .orderBy("id")
      .forUpdate()
      .execute();
    const sums = await sumsBy(
      trx,
      "credit_id",
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      account: "credit",
      number: r.reference_number,
      creditId: r.id,
      currencyIso: r.currency_iso.trim(),
      total: n(r.amount),
      available: sums.get(String(r.id)) ?? 0,
      expiresAt: new Date(r.expires_at),
      createdAt: new Date(r.created_at),
    }));
  }
  let q = trx
    .selectFrom("invoices")
    .select(["number", "currency_iso", "amount", "expires_at", "created_at"])
    .where("user_id", "=", userId)
    .where("kind", "=", "prepayment")
    .where("status", "=", "paid")
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]));
  if (typeof from === "object") q = q.where("number", "=", from.retainerInvoiceNumber);
  const rows = await q
    .orderBy(sql`expires_at nulls last`)
    .orderBy("created_at")
    .orderBy("number")
    .forUpdate()
    .execute();
  const sums = await sumsBy(
    trx,
    "retainer_invoice_number",
    rows.map((r) => r.number),
  );
  return rows.map((r) => ({
    account: "prepayment",
    number: r.number,
    creditId: null,
    currencyIso: r.currency_iso.trim(),
    total: n(r.amount),
    available: sums.get(r.number) ?? 0,
    expiresAt: r.expires_at ? new Date(r.expires_at) : null,
    createdAt: new Date(r.created_at),
  }));
}

async function sumsBy(trx: DB, column: "credit_id" | "retainer_invoice_number", keys: (string | number)[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await trx
    .selectFrom("balance_movements")
    .select([column, sql<string>`sum(amount)::text`.as("s")])
    .where(column, "in", keys as never[])
    .groupBy(column)
    .execute();
  return new Map(rows.map((r) => [String((r as Record<string, unknown>)[column]), n(r.s)]));
}

// ─── Expiry ─────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Closes what is left on expired credits and prepayments: one expire row each (negative, the rest), written
 * under the account's lock so a spend running at the same moment is counted first. Returns how many expired.
 */
export async function expireBalances(db: DB, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom("credits as c")
    .select(["c.id", "c.user_id"])
    .where("c.expires_at", "<=", now)
    .where(sql<boolean>`(select coalesce(sum(m.amount), 0) from balance_movements m where m.credit_id = c.id) > 0`)
    .limit(500)
    .execute();
  let expired = 0;
  for (const c of due) {
    const wrote = await db.transaction().execute(async (trx) => {
      await trx.selectFrom("credits").select("id").where("id", "=", c.id).forUpdate().executeTakeFirst();
      const left = (await sumsBy(trx, "credit_id", [c.id])).get(String(c.id)) ?? 0;
      if (left <= 0) return false;
      await trx
        .insertInto("balance_movements")
        .values({ user_id: c.user_id, credit_id: c.id, amount: -left, kind: "expire", note: "expired" })
        .execute();
      return true;
    });
    if (wrote) expired++;
  }
  return expired;
}
