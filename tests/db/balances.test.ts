// The balance ledger (issue 13 §3, ADR 039) on a real database: balances are sums of movement rows, spends go
// oldest-expiring first and put money on the invoice through its ledger, conversion at the day's rate is
// stored, expiry closes what is left, and 20 concurrent spends never take a balance below 0.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createResearcher } from "../helpers/factories";
import { getCatalogue } from "../../server/catalogue";
import { lockInvoice } from "../../server/billing/invoices/payments";
import { expireBalances, grantCredit, spendOnInvoice, userBalances, type SpendRequest } from "../../server/billing";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const DAY = 24 * 3600 * 1000;
const inDays = (d: number) => new Date(Date.now() + d * DAY);

async function spend(userId: number, invoiceNumber: string, from: SpendRequest["from"], max: number) {
  const catalogue = await getCatalogue(t.ctx);
  return t.ctx.db.transaction().execute(async (trx) => {
    const invoice = (await lockInvoice(trx, invoiceNumber))!;
    return spendOnInvoice(trx, { userId, invoice, from, max, actor: { userId }, catalogue });
  });
}

const movements = (userId: number) =>
  t.ctx.db.selectFrom("balance_movements").selectAll().where("user_id", "=", userId).orderBy("id").execute();

describe("credits", () => {
  it("spends the oldest-expiring credit first, each spend a ledger row on both sides", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const iso = invoice.currency_iso.trim();
    const later = await t.ctx.db
      .transaction()
      .execute((trx) => grantCredit(trx, { userId: user.id, currencyIso: iso, amount: 5000, kind: "courtesy", expiresAt: inDays(300) }));
    const sooner = await t.ctx.db
      .transaction()
      .execute((trx) => grantCredit(trx, { userId: user.id, currencyIso: iso, amount: 3000, kind: "courtesy", expiresAt: inDays(30) }));
    expect(sooner.referenceNumber).toMatch(/^CR\d{6,}$/);

    const spent = await spend(user.id, invoice.number, "credits", 4000);
    expect(spent.amount).toBe(4000);
    expect(spent.movements.map((m) => [m.number, m.amount])).toEqual([
      [sooner.referenceNumber, 3000],
      [later.referenceNumber, 1000],
    ]);
    const balances = await userBalances(t.ctx.db, user.id);
    expect(balances.credits.map((c) => [c.number, c.available])).toEqual([
      [sooner.referenceNumber, 0],
      [later.referenceNumber, 4000],
    ]);
    const rows = await movements(user.id);
    expect(rows.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ["deposit", 5000],
      ["deposit", 3000],
      ["spend", -3000],
      ["spend", -1000],
    ]);
    const ledger = await t.ctx.db.selectFrom("invoice_payments").selectAll().where("invoice_number", "=", invoice.number).execute();
    expect(ledger.map((r) => Number(r.amount)).sort()).toEqual([1000, 3000]);
    const after = await t.ctx.db.selectFrom("invoices").select("balance").where("number", "=", invoice.number).executeTakeFirstOrThrow();
    expect(Number(after.balance)).toBe(Number(invoice.balance) - 4000);
  });

  it("never spends more than the invoice's balance, and converts another currency at the day's rate", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const iso = invoice.currency_iso.trim();
    const other = iso === "EUR" ? "USD" : "EUR";
    await t.ctx.db
      .transaction()
      .execute((trx) =>
        grantCredit(trx, { userId: user.id, currencyIso: other, amount: 10_000_000, kind: "courtesy", expiresAt: inDays(10) }),
      );
    const spent = await spend(user.id, invoice.number, "credits", Number.MAX_SAFE_INTEGER);
    expect(spent.amount).toBe(Number(invoice.balance));
    expect(spent.balance).toBe(0);
    const [row] = (await movements(user.id)).filter((r) => r.kind === "spend");
    expect(Number(row.invoice_amount)).toBe(Number(invoice.balance));
    expect(row.exchange_rate).not.toBeNull();
    expect(-Number(row.amount)).toBeLessThan(10_000_000);
    const paid = await t.ctx.db.selectFrom("orders").select("paid").where("id", "=", invoice.order_id).executeTakeFirstOrThrow();
    expect(paid.paid).toBe(true);
  });

  it("expires what is left with one row, and an expired credit is not spent", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const iso = invoice.currency_iso.trim();
    const credit = await t.ctx.db
      .transaction()
      .execute((trx) => grantCredit(trx, { userId: user.id, currencyIso: iso, amount: 2500, kind: "courtesy", expiresAt: inDays(1) }));
    const tomorrowAndABit = inDays(2);
    expect((await userBalances(t.ctx.db, user.id, tomorrowAndABit)).credits[0].available).toBe(0);
    expect(await expireBalances(t.ctx.db, tomorrowAndABit)).toBeGreaterThanOrEqual(1);
    expect(await expireBalances(t.ctx.db, tomorrowAndABit)).toBe(0);
    const rows = (await movements(user.id)).filter((r) => r.credit_id === credit.id);
    expect(rows.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ["deposit", 2500],
      ["expire", -2500],
    ]);
    expect((await spend(user.id, invoice.number, "credits", 1000)).amount).toBe(0);
  });

  it("20 concurrent spends of one credit never take it below 0", async () => {
    const user = await createResearcher(t.ctx);
    const invoices: { number: string; currency_iso: string }[] = [];
    for (let i = 0; i < 4; i++) invoices.push((await createInvoice(t.ctx, user)).invoice);
    const iso = invoices[0].currency_iso.trim();
    const credit = await t.ctx.db
      .transaction()
      .execute((trx) => grantCredit(trx, { userId: user.id, currencyIso: iso, amount: 1000, kind: "courtesy", expiresAt: inDays(5) }));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => spend(user.id, invoices[i % invoices.length].number, "credits", 150)),
    );
    const total = results.reduce((a, r) => a + r.amount, 0);
    expect(total).toBe(1000);
    const sum = await t.ctx.db
      .selectFrom("balance_movements")
      .select((eb) => eb.fn.sum<string>("amount").as("s"))
      .where("credit_id", "=", credit.id)
      .executeTakeFirstOrThrow();
    expect(Number(sum.s)).toBe(0);
    const onInvoices = await t.ctx.db
      .selectFrom("invoice_payments")
      .select((eb) => eb.fn.sum<string>("amount").as("s"))
      .where(
        "invoice_number",
        "in",
        invoices.map((i) => i.number),
      )
      .executeTakeFirstOrThrow();
    expect(Number(onInvoices.s)).toBe(1000);
  });
});
