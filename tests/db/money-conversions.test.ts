// The pay-many page shows what the charge will be (issue 21 §5, ADR 054): invoices in different currencies are
// paid in USD, each balance converted by the one conversion of #common/money at the rate in force today and
// rounded up to the cent, as the payment service charges them (invoicesTotal). The page used to divide in binary
// floating point and round half up, at the newest rate even when it was only announced for a later day: it
// showed a cent less than was charged, or another rate's total.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { convertMinor, USD, type CurrencyRate } from "#common/money";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createResearcher, scopeFor, type TestUser } from "../helpers/factories";
import { loadPayoff } from "../../server/payments/form";
import { invoicesTotal } from "../../server/payments";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const todaysRate = async (iso: string): Promise<CurrencyRate> => {
  const r = await t.ctx.db
    .selectFrom("exchange_rates as r")
    .innerJoin("currencies as c", "c.iso_code", "r.iso_code")
    .select(["r.rate", "c.num_decimals"])
    .where("r.iso_code", "=", iso)
    .where("r.effective_on", "<=", sql<string>`current_date`)
    .orderBy("r.effective_on", "desc")
    .executeTakeFirstOrThrow();
  return { isoCode: iso, numDecimals: r.num_decimals, rate: String(r.rate) };
};

describe("the pay-many page's total in USD", () => {
  let user: TestUser;
  let numbers: string[];
  let brlNumber: string;
  let brl: CurrencyRate;

  beforeAll(async () => {
    user = await createResearcher(t.ctx, { country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL" });
    const dollars = await createInvoice(t.ctx, user, { projectTitle: "Dollars", currencyIso: "USD" });
    const reais = await createInvoice(t.ctx, user, { projectTitle: "Reais", currencyIso: "BRL" });
    brlNumber = reais.invoice.number;
    numbers = [dollars.invoice.number, brlNumber];
    brl = await todaysRate("BRL");
    // A balance whose USD value has a fraction of a cent below a half: rounding half up and rounding up differ.
    let balance = Number(reais.invoice.balance);
    while (convertMinor(balance, brl, USD) === convertMinor(balance, brl, USD, "up")) balance -= 1;
    await t.ctx.db
      .updateTable("invoices")
      .set({ balance: String(balance) })
      .where("number", "=", brlNumber)
      .execute();
  });

  it("is the amount the payment service charges, invoice by invoice", async () => {
    const page = await loadPayoff(scopeFor(t.ctx, user), numbers);
    const charged = await invoicesTotal(t.ctx.db, user.id, numbers);
    expect(page.ok && charged.ok).toBe(true);
    if (!page.ok || !charged.ok) return;
    expect([page.value.currency.isoCode, charged.value.currencyIso]).toEqual(["USD", "USD"]);
    expect(page.value.total).toBe(charged.value.amount);
    const reais = charged.value.invoices.find((i) => i.number === brlNumber)!;
    expect(page.value.shown[brlNumber]).toBe(convertMinor(reais.balance, brl, USD, "up"));
  });

  it("uses the rate in force today, not one announced for a later day", async () => {
    const later = new Date(Date.now() + 10 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await t.ctx.db.insertInto("exchange_rates").values({ iso_code: "BRL", effective_on: later, rate: "2.5" }).execute();
    const page = await loadPayoff(scopeFor(t.ctx, user), numbers);
    const charged = await invoicesTotal(t.ctx.db, user.id, numbers);
    expect(page.ok && charged.ok && page.value.total).toBe(charged.ok && charged.value.amount);
    const balance = charged.ok ? charged.value.invoices.find((i) => i.number === brlNumber)!.balance : 0;
    expect(page.ok && page.value.shown[brlNumber]).toBe(convertMinor(balance, brl, USD, "up"));
  });
});
