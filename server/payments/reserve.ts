// Balances chosen with a charge are held, not spent, until the provider answers (issue 21 §2, ADR 051; ADR 041's
// "limit" fixed): a declined or failed charge spends nothing. A hold is a `reserve` movement (negative: it counts
// against what the researcher may spend elsewhere meanwhile); the charge succeeding turns each hold into the spend
// it was and puts it on its invoice; a decline, a cancellation or the recovery job failing the attempt writes a
// `release` movement that gives it back. Each hold is applied or released once: both run under the payment's lock.
import { sql } from "kysely";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { DB } from "../db";
import type { Actor } from "../kernel/actor";
import { creditInvoice, lockInvoice } from "../billing/invoices/payments";

type Which = { paymentId: string } | { ids: string[] };

async function holds(trx: DB, which: Which) {
  let q = trx
    .selectFrom("balance_movements as m")
    .leftJoin("credits as c", "c.id", "m.credit_id")
    .leftJoin("invoices as r", "r.number", "m.retainer_invoice_number")
    .select([
      "m.id",
      "m.user_id",
      "m.credit_id",
      "m.retainer_invoice_number",
      "m.amount",
      "m.invoice_number",
      "m.invoice_amount",
      "m.exchange_rate",
      "m.payment_id",
      "c.reference_number",
      sql<string>`coalesce(c.currency_iso, r.currency_iso)`.as("account_currency"),
    ])
    .where("m.kind", "=", "reserve")
    // Not released yet: a release row names the hold it gives back.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("balance_movements as x")
            .select("x.id")
            .where("x.kind", "=", "release")
            .whereRef("x.note", "=", sql<string>`'release:' || m.id`),
        ),
      ),
    )
    .orderBy("m.id");
  q = "paymentId" in which ? q.where("m.payment_id", "=", which.paymentId) : q.where("m.id", "in", which.ids.length ? which.ids : ["0"]);
  return q.execute();
}

/** Gives back every hold not yet applied (a declined, failed or cancelled charge). Returns how many. */
export async function releaseReservations(trx: DB, which: Which, actor: Actor): Promise<number> {
  const rows = await holds(trx, which);
  for (const h of rows) await release(trx, h, actor);
  return rows.length;
}

async function release(trx: DB, h: Awaited<ReturnType<typeof holds>>[number], actor: Actor) {
  await trx
    .insertInto("balance_movements")
    .values({
      user_id: h.user_id,
      credit_id: h.credit_id,
      retainer_invoice_number: h.retainer_invoice_number,
      amount: -Number(h.amount),
      kind: "release",
      payment_id: h.payment_id,
      note: `release:${h.id}`,
      actor_user_id: actor.userId ?? null,
    })
    .execute();
}

/**
 * Turns the holds into spends on their invoices (`invoiceNumber` for holds made before the order had one). A hold
 * the invoice no longer needs whole (paid otherwise meanwhile) is released instead: the balance stays the
 * researcher's. Returns what was put on invoices (minor units of each invoice's currency, summed).
 */
export async function applyReservations(
  trx: DB,
  _app: unknown,
  req: Which & { userId: number; actor: Actor; invoiceNumber?: string },
): Promise<number> {
  let applied = 0;
  const today = new Date().toISOString().slice(0, 10);
  for (const h of await holds(trx, req)) {
    const number = req.invoiceNumber ?? h.invoice_number;
    const invoice = number ? await lockInvoice(trx, number) : null;
    const take = Number(h.invoice_amount ?? 0);
    if (!invoice || invoice.kind !== "order" || invoice.user_id !== req.userId || take <= 0 || Number(invoice.balance) < take) {
      await release(trx, h, req.actor);
      continue;
    }
    const account = h.credit_id !== null ? `credit:${h.reference_number}` : `prepayment:${h.retainer_invoice_number}`;
    await trx.updateTable("balance_movements").set({ kind: "spend", invoice_number: invoice.number }).where("id", "=", h.id).execute();
    await creditInvoice(
      trx,
      invoice,
      {
        amount: take,
        paymentMethodId: PAYMENT_METHOD.credits,
        reference: `${account}:${h.id}`,
        receivedOn: today,
        paymentId: h.payment_id,
        paidAmount: h.exchange_rate ? -Number(h.amount) : null,
        paidCurrencyIso: h.exchange_rate ? h.account_currency.trim() : null,
        exchangeRate: h.exchange_rate,
      },
      req.actor,
    );
    applied += take;
  }
  return applied;
}
