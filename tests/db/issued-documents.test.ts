// What an issued document keeps (issue 21 §2, ADR 052) on a real database with the built-in card sandbox:
// FAPESP fixes USD for the order, its invoice and the payment (spec 2 §4); an invoice stores its issuer and, when
// converted, its USD base and the rate it was priced at.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { systemScope } from "#server/scope";
import { paymentSubmission } from "../helpers/payments";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createOrderFormFor, createResearcher, type TestUser } from "../helpers/factories";
import { payOrderForm } from "../../server/orders/pay";
import { computePrice } from "../../server/order-form/price";
import { convertMinor, USD } from "#common/money";
import * as migration from "../../db/migrations/0034_issued_documents";
import * as invoiceKinds from "../../db/migrations/0036_invoice_kinds";
import { issueRetainer } from "../../server/prepay/retainer";
import { retainerInvoicePdf } from "../../server/prepay";
import { pdfText } from "../helpers/invoices";
import { seedPrepayment } from "../helpers/balances";

// The USD base of an amount in reais at `rate` (the money module, ADR 054).
const usdCentsAt = (amount: number, rate: string, numDecimals: number) => convertMinor(amount, { isoCode: "BRL", numDecimals, rate }, USD);

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const brazilian = () =>
  createResearcher(t.ctx, { country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL", language: "br" });
const brScope = (user: TestUser) => systemScope(t.ctx, { userId: user.id, lang: "br", localization: "BR" });

/** The catalogue's USD price of the form: the same form priced in USD (the BR site's prices, in dollars). */
async function usdPrice(user: TestUser, formId: string) {
  const form = await t.ctx.db.selectFrom("order_forms").selectAll().where("id", "=", formId).executeTakeFirstOrThrow();
  const price = await computePrice(brScope(user), { ...form, currency_iso: "USD" });
  return price!.total;
}

describe("FAPESP fixes US dollars", () => {
  it("places a Brazilian researcher's FAPESP card order in USD: the order, its invoice and the payment", async () => {
    const user = await brazilian();
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "FAPESP card", currencyIso: "BRL" });
    expect(form.currency_iso.trim()).toBe("BRL");
    const usd = await usdPrice(user, form.id);
    const submission = paymentSubmission(PAYMENT_METHOD.creditCard, {
      nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`,
      brazilChoice: "fapesp",
      fapespProcessNumber: "2025/01234-5",
      currencyIso: "USD",
    });
    const r = await payOrderForm(brScope(user), form, submission, randomUUID());
    expect(r.ok ? r.value.status : r.error).toBe("succeeded");
    const order = await t.ctx.db.selectFrom("orders").selectAll().where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    expect([order.currency_iso.trim(), Number(order.total)]).toEqual(["USD", usd]);
    const invoice = await t.ctx.db.selectFrom("invoices").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect([invoice.currency_iso.trim(), Number(invoice.amount), invoice.status]).toEqual(["USD", usd, "paid"]);
    expect(invoice.fapesp_process_number).toBe("2025/01234-5");
    expect([Number(invoice.usd_total), Number(invoice.exchange_rate)]).toEqual([usd, 1]);
    const payment = await t.ctx.db.selectFrom("payments").selectAll().where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    expect([payment.currency_iso.trim(), Number(payment.amount), payment.status]).toEqual(["USD", usd, "succeeded"]);
    // The researcher's own form keeps its currency: only this purchase is in dollars.
    const after = await t.ctx.db.selectFrom("order_forms").select("currency_iso").where("id", "=", form.id).executeTakeFirstOrThrow();
    expect(after.currency_iso.trim()).toBe("BRL");
  });

  it("invoices a FAPESP bank-transfer order in USD too, and a non-FAPESP one in reais", async () => {
    const user = await brazilian();
    const fapesp = await createOrderFormFor(t.ctx, user, {
      services: ["standard-editing"],
      projectTitle: "FAPESP bank",
      currencyIso: "BRL",
    });
    const usd = await usdPrice(user, fapesp.id);
    const sub = paymentSubmission(PAYMENT_METHOD.bankTransfer, {
      brazilChoice: "fapesp",
      fapespProcessNumber: "2025/99999-1",
      currencyIso: "USD",
    });
    const r = await payOrderForm(brScope(user), fapesp, sub, randomUUID());
    expect(r.ok ? r.value.status : r.error).toBe("succeeded");
    const invoice = await t.ctx.db
      .selectFrom("invoices as i")
      .innerJoin("orders as o", "o.id", "i.order_id")
      .select(["i.currency_iso", "i.amount", "o.currency_iso as order_currency"])
      .where("o.order_form_id", "=", fapesp.id)
      .executeTakeFirstOrThrow();
    expect([invoice.currency_iso.trim(), invoice.order_currency.trim(), Number(invoice.amount)]).toEqual(["USD", "USD", usd]);

    const plain = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Reais", currencyIso: "BRL" });
    const r2 = await payOrderForm(
      brScope(user),
      plain,
      paymentSubmission(PAYMENT_METHOD.bankTransfer, { brazilChoice: "no-requirements" }),
      randomUUID(),
    );
    expect(r2.ok).toBe(true);
    const reais = await t.ctx.db
      .selectFrom("invoices as i")
      .innerJoin("orders as o", "o.id", "i.order_id")
      .select(["i.currency_iso", "i.amount", "i.usd_total", "i.exchange_rate"])
      .where("o.order_form_id", "=", plain.id)
      .executeTakeFirstOrThrow();
    expect(reais.currency_iso.trim()).toBe("BRL");
    // A converted invoice keeps its rate and USD base from when it was issued.
    expect(Number(reais.exchange_rate)).toBeGreaterThan(1);
    expect(Number(reais.usd_total)).toBe(usdCentsAt(Number(reais.amount), reais.exchange_rate!, 2));
  });
});

describe("an invoice keeps its issuer", () => {
  it("stores the legal entity of the localisation it was issued in", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const entity = (typeof invoice.legal_entity === "string" ? JSON.parse(invoice.legal_entity) : invoice.legal_entity) as Record<
      string,
      unknown
    >;
    expect(entity).toMatchObject({ identity: "default", name: "Researcher Services Ltd", taxId: "EIN 12-3456789" });
  });
});

describe("a retainer (prepayment) invoice keeps its issuer and rate", () => {
  it("prints the entity and the USD base stored when it was issued", async () => {
    const user = await brazilian();
    const scope = brScope(user);
    const retainer = await t.ctx.db.transaction().execute((trx) =>
      issueRetainer(trx, scope, {
        userId: user.id,
        currencyIso: "BRL",
        amount: 56000,
        methodId: PAYMENT_METHOD.bankTransfer,
        billing: null,
        purchaseOrder: null,
        fapespProcessNumber: null,
      }),
    );
    const row = await t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", retainer.number).executeTakeFirstOrThrow();
    expect(row.exchange_rate).not.toBeNull();
    expect(Number(row.usd_total)).toBe(usdCentsAt(56000, row.exchange_rate!, 2));
    const text = async () => {
      const r = await retainerInvoicePdf(scope, retainer.number);
      return pdfText(r.ok ? r.value : Buffer.alloc(0));
    };
    const before = await text();
    expect(before).toContain("CNPJ12.345.678/0001-95");
    expect(before).toContain(`1USD=${String(row.exchange_rate).replace(/0+$/, "").replace(/\.$/, "").replace(".", ",")}BRL`);
    // The copy stored at issue is what prints, not the localisation's entity of today.
    const stored = { identity: "BR", name: "Emissora Original Ltda.", address: [], email: "", phone: "", taxId: "CNPJ 11.222.333/0001-81" };
    await t.ctx.db
      .updateTable("invoices")
      .set({ legal_entity: JSON.stringify(stored) })
      .where("number", "=", retainer.number)
      .execute();
    const after = await text();
    expect(after).toContain("EmissoraOriginalLtda.");
    expect(after).not.toContain("CNPJ12.345.678/0001-95");
  });
});

describe("migration 0034's back-fill", () => {
  it("gives the invoices issued before it their localisation's entity, and a converted one its rate and USD base", async () => {
    const us = await createResearcher(t.ctx);
    const usd = (await createInvoice(t.ctx, us)).invoice;
    const br = await brazilian();
    const brl = (await createInvoice(t.ctx, br, { projectTitle: "Reais", currencyIso: "BRL" })).invoice;
    const prepayment = await seedPrepayment(t.ctx, br.id, 56000, "BRL");
    // As they were before 0034: no stored entity, rate or base; one without a localisation of its own.
    // 0036 folded retainer_invoices into invoices: undone first, then 0034, then both again.
    await invoiceKinds.down(t.ctx.db as never);
    await migration.down(t.ctx.db as never);
    await t.ctx.db.updateTable("invoices").set({ localization: null }).where("number", "=", brl.number).execute();
    await t.ctx.db.updateTable("users").set({ localization: "BR" }).where("id", "=", br.id).execute();
    await migration.up(t.ctx.db as never);
    await invoiceKinds.up(t.ctx.db as never);
    const rows = await t.ctx.db
      .selectFrom("invoices")
      .select(["number", "localization", "legal_entity", "usd_total", "exchange_rate"])
      .where("number", "in", [usd.number, brl.number])
      .execute();
    const by = new Map(rows.map((r) => [r.number, r]));
    const entity = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v) as Record<string, unknown>;
    expect(entity(by.get(usd.number)!.legal_entity)).toMatchObject({ identity: "default", taxId: "EIN 12-3456789" });
    expect([Number(by.get(usd.number)!.usd_total), Number(by.get(usd.number)!.exchange_rate)]).toEqual([Number(usd.amount), 1]);
    // The one without a localisation printed its owner's: that is now its own, with that entity.
    expect(by.get(brl.number)!.localization).toBe("BR");
    expect(entity(by.get(brl.number)!.legal_entity)).toMatchObject({ identity: "BR", taxId: "CNPJ 12.345.678/0001-95" });
    expect(by.get(brl.number)!.exchange_rate).toBe(brl.exchange_rate);
    expect(Number(by.get(brl.number)!.usd_total)).toBe(Number(brl.usd_total));
    const retainer = await t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", prepayment).executeTakeFirstOrThrow();
    expect(retainer.kind).toBe("prepayment");
    expect(entity(retainer.legal_entity)).toMatchObject({ identity: "default", taxId: "EIN 12-3456789" });
    expect(Number(retainer.usd_total)).toBe(usdCentsAt(56000, retainer.exchange_rate!, 2));
  });
});
