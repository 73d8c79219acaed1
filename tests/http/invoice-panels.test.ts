// Where a researcher finds an invoice's documents and actions (issue 21 defects 11c, 11d and the overpayment of
// §2), without JavaScript: a boleto issued in the wizard is linked from the invoice list and the order details
// page with "Continue the pending payment"; the order details page offers "Pay" under "Balance due" while
// something is due; a surplus is said, with where it went, on the list, the details page and the receipt.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type Client, type TestPortal } from "../helpers/portal";
import { createInvoice, createOrderFormFor } from "../helpers/factories";
import { pdfText } from "../helpers/invoices";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { creditOverpayment } from "#server/billing";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({ PAYMENTS_MODE: "sandbox" });
});
afterAll(async () => portal.stop());

const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)![1];

describe("a boleto issued in the wizard", () => {
  it("is linked from the invoice list and the order details page, with its pending payment instead of Pay", async () => {
    const ana = await portal.researcher({ country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL" });
    const form = await createOrderFormFor(portal.ctx, ana, { services: ["standard-editing"], projectTitle: "Boleto", currencyIso: "BRL" });
    const step = "/en/researcher/submit/payment-details";
    const html = await (await ana.client.get(step)).text();
    const sp = await portal.ctx.db
      .selectFrom("states as s")
      .innerJoin("countries as c", "c.id", "s.country_id")
      .select(["s.code", "c.id"])
      .where("c.iso2", "=", "BR")
      .where("s.code", "=", "SP")
      .executeTakeFirstOrThrow();
    const placed = await ana.client.post(step, {
      orderFormId: form.id,
      idempotencyKey: keyOf(html),
      brazilChoice: "allpago",
      paymentMethodId: String(PAYMENT_METHOD.boleto),
      taxType: "CPF",
      taxNumber: "529.982.247-25",
      "address.name": "Ana Souza",
      "address.address1": "Av. Paulista 1000",
      "address.city": "São Paulo",
      "address.state": sp.code,
      "address.zip": "01310-100",
      "address.countryId": String(sp.id),
      acceptTerms: "on",
    });
    expect(placed.status).toBe(303);
    const boleto = await portal.ctx.db
      .selectFrom("payments")
      .select(["id", "invoice_numbers"])
      .where("user_id", "=", ana.id)
      .where("method_id", "=", PAYMENT_METHOD.boleto)
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow();
    const [invoiceNumber] = boleto.invoice_numbers as unknown as string[];
    const pdfLink = `href="/api/payment/${boleto.id}/boleto.pdf"`;
    const pendingLink = `href="/en/researcher/payment/${boleto.id}"`;

    for (const list of ["/en/researcher/invoices", "/en/researcher/invoices/unpaid"]) {
      const page = await (await ana.client.get(list)).text();
      expect(page).toContain(pdfLink);
      expect(page).toContain(pendingLink);
    }
    const order = await portal.ctx.db
      .selectFrom("orders")
      .select("external_id")
      .where("order_form_id", "=", form.id)
      .executeTakeFirstOrThrow();
    const details = await (await ana.client.get(`/en/researcher/index/details/${order.external_id}`)).text();
    expect(details).toContain(pdfLink);
    expect(details).toContain(pendingLink);
    expect(details).toContain(`href="/api/invoice/${invoiceNumber}/pdf"`);
    // A pending boleto is paid at a bank: no second way to pay is offered beside it.
    expect(details).not.toContain(`href="/en/researcher/invoices/pay/${invoiceNumber}"`);
    expect((await ana.client.get(`/api/payment/${boleto.id}/boleto.pdf`)).status).toBe(200);
  });
});

describe("the order details page's invoice", () => {
  it("offers Pay under 'Balance due' while something is due, and not once it is paid", async () => {
    const user = await portal.researcher();
    const { order, invoice } = await createInvoice(portal.ctx, user);
    const page = `/en/researcher/index/details/${order.externalId}`;
    const html = await (await user.client.get(page)).text();
    expect(html).toContain("Balance due");
    expect(html).toContain(`href="/en/researcher/invoices/pay/${invoice.number}"`);
    expect(html).toContain(`href="/api/invoice/${invoice.number}/pdf"`);
    await pay(user.client, invoice.number);
    const paid = await (await user.client.get(page)).text();
    expect(paid).not.toContain(`href="/en/researcher/invoices/pay/${invoice.number}"`);
    expect(paid).toContain(`href="/api/invoice/${invoice.number}/pdf"`);
    expect(paid).toMatch(/href="\/api\/payment\/\d+\/pdf"/);
  });
});

describe("an overpaid invoice", () => {
  it("says by how much and where the surplus went: the list, the details page and the receipt", async () => {
    const user = await portal.researcher();
    const { order, invoice } = await createInvoice(portal.ctx, user);
    const paymentId = await pay(user.client, invoice.number);
    // A second capture beyond what was due (ADR 051): deposited as the researcher's overpayment credit.
    const credit = await portal.ctx.db
      .transaction()
      .execute((trx) => creditOverpayment(trx, { id: paymentId, userId: user.id }, "USD", 26000, { userId: null }));
    const said = `Overpaid by $260: credited to your prepaid balance (${credit!.creditNumber}).`;
    expect(await (await user.client.get("/en/researcher/invoices")).text()).toContain(said);
    expect(await (await user.client.get(`/en/researcher/index/details/${order.externalId}`)).text()).toContain(said);
    const ledger = await portal.ctx.db
      .selectFrom("invoice_payments")
      .select("id")
      .where("invoice_number", "=", invoice.number)
      .where("kind", "=", "payment")
      .executeTakeFirstOrThrow();
    const receipt = await user.client.get(`/api/payment/${ledger.id}/pdf`);
    expect(receipt.status).toBe(200);
    const text = await pdfText(new Uint8Array(await receipt.arrayBuffer()));
    expect(text).toContain(said.replace(/\s+/g, ""));
    // Staff refund part of it: the researcher reads what was refunded and what stays credited.
    await portal.ctx.db
      .insertInto("balance_movements")
      .values({ user_id: user.id, credit_id: credit!.creditId, amount: -6000, kind: "refund", payment_id: paymentId, note: "test" })
      .execute();
    expect(await (await user.client.get("/en/researcher/invoices")).text()).toContain(
      `Overpaid by $260: $60 refunded to you, $200 credited to your prepaid balance (${credit!.creditNumber}).`,
    );
    // Another researcher never sees it.
    const other = await portal.researcher();
    expect(await (await other.client.get("/en/researcher/invoices")).text()).not.toContain(credit!.creditNumber);
  });
});

/** Pays the invoice by the sandbox card through the API; the payment's id. */
async function pay(c: Client, invoiceNumber: string): Promise<string> {
  const country = await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
  const r = await c.request("/api/payoff/payment", {
    method: "POST",
    headers: { "content-type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({
      paymentMethodId: PAYMENT_METHOD.creditCard,
      acceptedTermsAndConditions: true,
      additionalData: { payoffReceiptCodes: [invoiceNumber] },
      billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: country.id } },
      creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
    }),
  });
  expect(r.status).toBe(200);
  return (await r.json()).payment.paymentId as string;
}

describe("paying every unpaid invoice, on every page", () => {
  it("offers 'Pay all N unpaid invoices' beyond one page and sends all of them to the pay page (303)", async () => {
    const user = await portal.researcher();
    const numbers: string[] = [];
    for (let k = 0; k < 12; k++) numbers.push((await createInvoice(portal.ctx, user, { projectTitle: `Paper ${k}` })).invoice.number);
    const list = await (await user.client.get("/en/researcher/invoices/unpaid")).text();
    // Issue 21 defect 11b: "Select all" ticked only this page's 10.
    expect(list).toContain(">Select all on this page<");
    expect(list).toMatch(/Pay all 12 unpaid invoices \(\$[\d,]+\)/);
    const r = await user.client.get("/en/researcher/invoices/unpaid?intent=pay-all");
    expect(r.status).toBe(303);
    const location = r.headers.get("location")!;
    expect(decodeURIComponent(location.split("/pay/")[1]).split(",").sort()).toEqual([...numbers].sort());
    const pay = await user.client.get(location);
    expect(pay.status).toBe(200);
    const payPage = await pay.text();
    for (const n of numbers) expect(payPage).toContain(n);
    // The filter travels with it: only the matching unpaid invoice.
    const one = await user.client.get(`/en/researcher/invoices/unpaid?orderNumber=${numbers[3]}&intent=pay-all`);
    expect(one.headers.get("location")).toBe(`/en/researcher/invoices/pay/${numbers[3]}`);
    // Nothing unpaid left to gather: the list again with the error.
    const other = await portal.researcher();
    const none = await other.client.get("/en/researcher/invoices/unpaid?intent=pay-all");
    expect(none.status).toBe(400);
  });
});

describe("the invoice filter's dates in the page's language", () => {
  it("reads DD/MM/AAAA on /br and YYYY/MM/DD on /cn, and says so when refused", async () => {
    const user = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, user, { projectTitle: "Março" });
    await portal.ctx.db
      .updateTable("invoices")
      .set({ created_at: new Date("2026-03-10T12:00:00Z") })
      .where("number", "=", invoice.number)
      .execute();
    const br = await user.client.get("/br/researcher/invoices?from=01/03/2026&to=31/03/2026");
    expect(br.status).toBe(200);
    expect(await br.text()).toContain(invoice.number);
    const us = await user.client.get("/br/researcher/invoices?from=03/31/2026");
    expect(us.status).toBe(400);
    expect(await us.text()).toContain("Informe a data no formato DD/MM/AAAA.");
    const cn = await user.client.get("/cn/researcher/invoices?from=2026/03/01&to=2026/03/31");
    expect(cn.status).toBe(200);
    expect(await cn.text()).toContain(invoice.number);
  });
});
