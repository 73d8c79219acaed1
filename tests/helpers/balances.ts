// Balances for tests (issue 13): a paid prepayment (an invoice of kind 'prepayment' with status 'paid' and its deposit
// through the ledger's depositPrepayment) and a credit (grantCredit), as the prepay flow and staff make them.
import { randomBytes } from "node:crypto";
import type { AppContext } from "../../server/context";
import { depositPrepayment, grantCredit } from "../../server/billing";

export async function seedPrepayment(ctx: Pick<AppContext, "db">, userId: number, amount: number, currencyIso = "USD"): Promise<string> {
  const number = `RT${Date.now().toString().slice(-7)}${randomBytes(2).toString("hex").toUpperCase()}`;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("invoices")
      .values({
        number,
        kind: "prepayment",
        user_id: userId,
        localization: "US",
        currency_iso: currencyIso,
        amount,
        balance: 0,
        status: "paid",
        paid_at: new Date(),
      })
      .returning(["number", "user_id", "amount"])
      .executeTakeFirstOrThrow();
    await depositPrepayment(trx, row, { userId: null });
  });
  return number;
}

export async function seedCredit(
  ctx: Pick<AppContext, "db">,
  userId: number,
  amount: number,
  currencyIso = "USD",
  expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000),
): Promise<string> {
  const r = await ctx.db.transaction().execute((trx) => grantCredit(trx, { userId, currencyIso, amount, kind: "courtesy", expiresAt }));
  return r.referenceNumber;
}
