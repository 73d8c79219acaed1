// Money captured beyond what was due (a late capture, a duplicate, two tabs racing) stays the researcher's and
// stays visible (issue 21 §2, ADR 051): it is deposited on an overpayment credit, one per payment and currency,
// whose deposit movement (kind `overpayment`) names the payment. The researcher sees it in their balance and may
// spend it on the next invoice; staff see it on the payment's page and refund it from there first. It never sits
// unseen in payments.details.
import { sql } from "kysely";
import type { DB } from "../../db";
import type { Actor } from "../../kernel/actor";

/** Money the researcher paid us is theirs: its credit does not lapse like a courtesy credit (far-future expiry). */
const OVERPAYMENT_EXPIRES = new Date("2199-12-31T00:00:00Z");

export interface Overpayment {
  creditId: number;
  creditNumber: string;
  currencyIso: string;
  /** Minor units of currencyIso. */
  amount: number;
}

/** Deposits `amount` of `currencyIso` as an overpayment credit of the payment's researcher, in the caller's transaction. */
export async function creditOverpayment(
  trx: DB,
  payment: { id: string; userId: number },
  currencyIso: string,
  amount: number,
  actor: Actor,
): Promise<Overpayment | null> {
  if (!Number.isSafeInteger(amount) || amount <= 0) return null;
  const credit = await trx
    .insertInto("credits")
    .values({
      user_id: payment.userId,
      reference_number: sql<string>`'CR' || nextval('credit_reference_seq')`,
      currency_iso: currencyIso,
      amount,
      kind: "overpayment",
      note: `payment:${payment.id}`,
      expires_at: OVERPAYMENT_EXPIRES,
      granted_by: null,
    })
    .returning(["id", "reference_number"])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("balance_movements")
    .values({
      user_id: payment.userId,
      credit_id: credit.id,
      amount,
      kind: "overpayment",
      payment_id: payment.id,
      note: "overpayment",
      actor_user_id: actor.userId ?? null,
    })
    .execute();
  return { creditId: credit.id, creditNumber: credit.reference_number, currencyIso, amount };
}

/** A payment's overpayment credits with what is still unspent on each (locked when `lock`). */
export async function overpaymentsOf(trx: DB, paymentId: string, lock = false) {
  let q = trx
    .selectFrom("credits as c")
    .innerJoin("balance_movements as d", (j) => j.onRef("d.credit_id", "=", "c.id").on("d.kind", "=", "overpayment"))
    .select(["c.id", "c.reference_number", "c.currency_iso", "c.amount", "c.user_id"])
    .where("d.payment_id", "=", paymentId)
    .orderBy("c.id");
  if (lock) q = q.forUpdate("c");
  const rows = await q.execute();
  const left = rows.length
    ? await trx
        .selectFrom("balance_movements")
        .select(["credit_id", sql<string>`sum(amount)::text`.as("s")])
        .where(
          "credit_id",
          "in",
          rows.map((r) => r.id),
        )
        .groupBy("credit_id")
        .execute()
    : [];
  const sums = new Map(left.map((r) => [r.credit_id, Number(r.s)]));
  return rows.map((r) => ({
    creditId: r.id,
    creditNumber: r.reference_number,
    currencyIso: r.currency_iso.trim(),
    amount: Number(r.amount),
    unspent: Math.max(0, sums.get(r.id) ?? 0),
    userId: r.user_id,
  }));
}

/**
 * Takes up to `amount` back off a payment's unspent overpayment credits in `currencyIso` (a staff refund of the
 * surplus): one `refund` movement per credit. Returns what was taken. The caller holds the payment's lock.
 */
export async function takeBackOverpayment(trx: DB, paymentId: string, currencyIso: string, amount: number, actor: Actor): Promise<number> {
  let left = amount;
  for (const c of await overpaymentsOf(trx, paymentId, true)) {
    if (left <= 0) break;
    if (c.currencyIso !== currencyIso || c.unspent <= 0) continue;
    const take = Math.min(left, c.unspent);
    await trx
      .insertInto("balance_movements")
      .values({
        user_id: c.userId,
        credit_id: c.creditId,
        amount: -take,
        kind: "refund",
        payment_id: paymentId,
        note: "overpayment refunded",
        actor_user_id: actor.userId ?? null,
      })
      .execute();
    left -= take;
  }
  return amount - left;
}
