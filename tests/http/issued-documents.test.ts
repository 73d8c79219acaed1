// An issued document over HTTP (issue 21 §2, ADR 052): ?localization= on an invoice PDF changes only the
// language it is printed in, never its issuer, tax identifier or amounts; a converted invoice returns and prints
// its USD base and rate (GET /api/invoice/load, the invoice page, the invoice and receipt PDFs); a balance spend
// is named by its kind and its document never says money was received.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "#common/format";
import { rateText } from "#common/invoices/list";
import { startRelaxedPortal, type Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { createInvoice, createOrderFormFor, createResearcher } from "../helpers/factories";
import { signIn } from "../helpers/portal";
import { pdfText, recordProviderPayment } from "../helpers/invoices";
import { seedCredit, seedPrepayment } from "../helpers/balances";
import { getCatalogue } from "../../server/catalogue";
import { convertMinor, USD } from "#common/money";
import { lockInvoice } from "../../server/billing/invoices/payments";
import { spendOnInvoice, type SpendRequest } from "../../server/billing";

// The USD base of an amount in reais at `rate` (the money module, ADR 054).
const usdCentsAt = (amount: number, rate: string, numDecimals: number) => convertMinor(amount, { isoCode: "BRL", numDecimals, rate }, USD);

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const text = async (c: Client, path: string) => {
  const r = await c.get(path);
  expect(r.status, path).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/pdf");
  return pdfText(new Uint8Array(await r.arrayBuffer()));
};
const squeeze = (s: string) => s.replace(/\s+/g, "");

async function spend(userId: number, invoiceNumber: string, from: SpendRequest["from"], max: number) {
  const catalogue = await getCatalogue(portal.ctx);
  return portal.ctx.db.transaction().execute(async (trx) => {
    const invoice = (await lockInvoice(trx, invoiceNumber))!;
    return spendOnInvoice(trx, { userId, invoice, from, max, actor: { userId }, catalogue });
  });
}

describe("the issuer of an invoice", () => {
  it("stays the US entity of a US invoice whatever ?localization asks for; only the language changes", async () => {
    const ada = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, ada);
    const amount = squeeze(formatMoney(Number(invoice.amount), USD));
    for (const q of ["", "?localization=CN", "?localization=BR", "?localization=XX"]) {
      const t = await text(ada.client, `/api/invoice/${invoice.number}/pdf${q}`);
      expect(t, q).toContain("ResearcherServicesLtd");
      expect(t, q).toContain("EIN12-3456789");
      expect(t, q).toContain(invoice.number);
      expect(t, q).toContain(amount);
      for (const other of ["瑞思科研服务", "91110108MA01ABCD3X", "ResearcherServicesBrasil", "CNPJ12.345.678/0001-95"])
        expect(t, q).not.toContain(other);
    }
    // Presentation only: the Chinese localisation prints the same document in Chinese.
    expect(await text(ada.client, `/api/invoice/${invoice.number}/pdf?localization=CN`)).toContain(`发票号${invoice.number}`);

    const { ledgerId } = await recordProviderPayment(portal.ctx, invoice.number, { amount: 1000, methodId: 3, sandbox: true });
    const receipt = await text(ada.client, `/api/payment/${ledgerId}/pdf?localization=BR`);
    expect(receipt).toContain("EIN12-3456789");
    expect(receipt).not.toContain("CNPJ");
  });

  it("prints the entity stored at issue, not one the configuration names later", async () => {
    const ada = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, ada);
    // The stored copy is what was issued: a document is never re-issued from today's settings.
    const stored = { identity: "US", name: "Issued Entity Inc", address: ["1 Issue Way"], email: "", phone: "", taxId: "EIN 98-7654321" };
    await portal.ctx.db
      .updateTable("invoices")
      .set({ legal_entity: JSON.stringify(stored) })
      .where("number", "=", invoice.number)
      .execute();
    const t = await text(ada.client, `/api/invoice/${invoice.number}/pdf?localization=BR`);
    expect(t).toContain("IssuedEntityInc");
    expect(t).toContain("EIN98-7654321");
    expect(t).not.toContain("EIN12-3456789");
  });
});

describe("a converted invoice", () => {
  let ana: SignedInUser;
  let number: string;
  let amount: number;
  let rate: string;
  let usd: number;

  beforeAll(async () => {
    ana = await portal.researcher({ country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL" });
    const { invoice } = await createInvoice(portal.ctx, ana, { projectTitle: "Reais", currencyIso: "BRL" });
    number = invoice.number;
    amount = Number(invoice.amount);
    rate = invoice.exchange_rate!;
    usd = Number(invoice.usd_total);
  });

  it("keeps the rate it was priced at and its USD base", () => {
    expect(Number(rate)).toBeGreaterThan(1);
    expect(usd).toBe(usdCentsAt(amount, rate, 2));
  });

  it("returns them from GET /api/invoice/load", async () => {
    const body = await (await ana.client.get("/api/invoice/load")).json();
    const row = body.invoices.find((i: { invoiceNumber: string }) => i.invoiceNumber === number);
    expect(row).toMatchObject({ currency: { isoCode: "BRL" }, usdTotal: usd, exchangeRate: rate });
  });

  it("shows them on the invoice page, in each language", async () => {
    const en = await (await ana.client.get("/en/researcher/invoices")).text();
    expect(en).toContain(`${formatMoney(usd, USD)} (1 USD = ${rateText(rate)} BRL)`);
    // The rate in the page's own writing of decimals: "5,6" in Portuguese.
    const br = await (await ana.client.get("/br/researcher/invoices")).text();
    expect(br).toContain(`(1 USD = ${rateText(rate, "pt-BR")} BRL)`);
    expect(rateText(rate, "pt-BR")).toContain(",");
  });

  it("prints them on the invoice and on a receipt", async () => {
    const note = `1USD=${rateText(rate)}BRL`;
    const base = squeeze(formatMoney(usd, USD));
    const invoice = await text(ana.client, `/api/invoice/${number}/pdf?localization=US`);
    expect(invoice).toContain(note);
    expect(invoice).toContain(base);
    const { ledgerId } = await recordProviderPayment(portal.ctx, number, { amount: 1000, methodId: 3, sandbox: true });
    const receipt = await text(ana.client, `/api/payment/${ledgerId}/pdf`);
    expect(receipt).toContain(note);
    expect(receipt).toContain(base);
  });
});

describe("a balance spend", () => {
  it("is named by its kind on the invoice, its page and its document, never as money received", async () => {
    const bob = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, bob);
    const prepayment = await seedPrepayment(portal.ctx, bob.id, 1000);
    const credit = await seedCredit(portal.ctx, bob.id, 500);
    await spend(bob.id, invoice.number, "prepayments", 1000);
    await spend(bob.id, invoice.number, "credits", 500);
    const ledger = await portal.ctx.db
      .selectFrom("invoice_payments")
      .select(["id", "reference"])
      .where("invoice_number", "=", invoice.number)
      .orderBy("id")
      .execute();
    expect(ledger.map((l) => l.reference.split(":")[0])).toEqual(["prepayment", "credit"]);
    const [spentPrepayment, spentCredit] = ledger.map((l) => String(l.id));

    const pdf = await text(bob.client, `/api/invoice/${invoice.number}/pdf`);
    expect(pdf).toContain(`Prepaidbalance`);
    expect(pdf).toContain(`Prepayment${prepayment}`);
    expect(pdf).toContain(`Courtesycredit`);
    expect(pdf).toContain(`Credit${credit}`);
    expect(pdf).not.toContain("prepayment:");
    expect(pdf).not.toContain("credit:");

    const page = await (await bob.client.get("/en/researcher/invoices")).text();
    expect(page).toMatch(/>Prepaid balance applied \d/);
    expect(page).toMatch(/>Credit applied \d/);
    // (The page's translations travel with it: only a link's own text counts.)
    expect(page).not.toMatch(/>Payment receipt \d/);

    const fromPrepayment = await text(bob.client, `/api/payment/${spentPrepayment}/pdf`);
    expect(fromPrepayment).toContain("Settlementbybalance");
    expect(fromPrepayment).toContain(`Prepayment${prepayment}`);
    expect(fromPrepayment).not.toContain("confirmsreceipt");
    expect(fromPrepayment).not.toContain("Amountreceived");

    const fromCredit = await text(bob.client, `/api/payment/${spentCredit}/pdf`);
    expect(fromCredit).toContain(`settledwithcredit${credit}.Nomoneywasreceivedforit.`);
    expect(fromCredit).not.toContain("confirmsreceipt");
    expect(fromCredit).not.toContain("Paymentreceipt");
  });
});

describe("FAPESP on the payment step without JavaScript", () => {
  it("says what it charges in dollars, and places the order and its invoice in USD", async () => {
    const user = await createResearcher(portal.ctx, { country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL" });
    const form = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "FAPESP", currencyIso: "BRL" });
    const c = await signIn(portal, user);
    const step = "/en/researcher/submit/payment-details";
    const html = await (await c.get(step)).text();
    const dollars = /FAPESP funds \(charged in US dollars: (\$[\d,.]+)\)/.exec(html)?.[1];
    expect(dollars).toBeTruthy();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1];
    const r = await c.post(step, {
      orderFormId: form.id,
      idempotencyKey: key,
      brazilChoice: "fapesp",
      fapespProcessNumber: "2025/01234-5",
      paymentMethodId: "9",
      "address.name": "Ana Souza",
      "address.address1": "Av. Paulista 1000",
      "address.city": "São Paulo",
      "address.state": "SP",
      "address.zip": "01310100",
      "address.countryId": String(
        (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "BR").executeTakeFirstOrThrow()).id,
      ),
      acceptTerms: "on",
    });
    expect(r.status, r.status === 303 ? "" : await r.text()).toBe(303);
    const placed = await portal.ctx.db
      .selectFrom("invoices as i")
      .innerJoin("orders as o", "o.id", "i.order_id")
      .select(["i.currency_iso", "i.amount", "o.currency_iso as order_currency", "i.fapesp_process_number"])
      .where("o.order_form_id", "=", form.id)
      .executeTakeFirstOrThrow();
    expect([placed.currency_iso.trim(), placed.order_currency.trim(), placed.fapesp_process_number]).toEqual([
      "USD",
      "USD",
      "2025/01234-5",
    ]);
    expect(formatMoney(Number(placed.amount), USD)).toBe(dollars);
  });
});
