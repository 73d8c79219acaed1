// The shared payment form over HTTP without JavaScript (issue 12 §1, §4): the wizard's payment step and the
// pay-many page post plain forms; POST /api/payoff/payment needs its Idempotency-Key and the user's own
// unpaid invoices.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "#common/format";
import { signIn, startRelaxedPortal, type Client, type TestPortal } from "../helpers/portal";
import { createInvoice, createOrderFormFor, createResearcher, createStaff, payInFull, type TestUser } from "../helpers/factories";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const STEP = "/en/researcher/submit/payment-details";
const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const payoff = (c: Client, body: unknown, key?: string) =>
  c.request("/api/payoff/payment", {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
    body: JSON.stringify(body),
  });

describe("the wizard's payment step without JavaScript", () => {
  it("asks for the terms, keeps the values, and places a bank-transfer order once per page", async () => {
    const user = await createResearcher(portal.ctx);
    const form = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Payment form" });
    const c = await signIn(portal, user);
    const html = await (await c.get(STEP)).text();
    expect(html).toMatch(/class="pm-method[^"]*"/);
    expect(html).toMatch(/name="paymentMethodId"[^>]*value="9"/);
    // Without JavaScript the first method that needs none is chosen (card entry needs it).
    expect(html).toMatch(/name="paymentMethodId"[^>]*checked=""[^>]*value="6"/);
    const key = keyOf(html);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // Each load of the page is a new payment attempt: a new key.
    expect(keyOf(await (await c.get(STEP)).text())).not.toBe(key);

    const fields = { orderFormId: form.id, idempotencyKey: key!, paymentMethodId: "9", purchaseOrder: "PO-77" };
    let r = await c.post(STEP, fields);
    expect(r.status).toBe(400);
    const refused = await r.text();
    expect(refused).toContain("Please accept the terms of service to place your order.");
    expect(refused).toContain('value="PO-77"');
    expect(keyOf(refused)).toBe(key);

    r = await c.post(STEP, { ...fields, acceptTerms: "on" });
    expect(r.status).toBe(303);
    const thankYou = r.headers.get("location")!;
    expect(thankYou).toMatch(/^\/en\/researcher\/index\/details\/RS\d+\/thank-you$/);
    // The same page posted again (a double submit) answers the same order.
    r = await c.post(STEP, { ...fields, acceptTerms: "on" });
    expect(r.headers.get("location")).toBe(thankYou);
    const orders = await portal.ctx.db.selectFrom("orders").select(["purchase_order"]).where("order_form_id", "=", form.id).execute();
    expect(orders).toEqual([{ purchase_order: "PO-77" }]);
  });

  it("checks the CPF's check digits for boleto (Brazil)", async () => {
    const user = await createResearcher(portal.ctx, { country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL" });
    const form = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Boleto", currencyIso: "BRL" });
    const c = await signIn(portal, user);
    const html = await (await c.get(STEP)).text();
    expect(html).toContain('name="brazilChoice"');
    expect(html).toContain('name="taxNumber"');
    const fields = {
      orderFormId: form.id,
      idempotencyKey: keyOf(html)!,
      brazilChoice: "allpago",
      paymentMethodId: "20",
      taxType: "CPF",
      taxNumber: "529.982.247-24",
      "address.name": "Ana Souza",
      "address.address1": "Av. Paulista 1000",
      "address.city": "São Paulo",
      "address.zip": "0131010",
      acceptTerms: "on",
    };
    const r = await c.post(STEP, fields);
    expect(r.status).toBe(400);
    const text = await r.text();
    expect(text).toContain("This CPF is not valid: please check its digits.");
    expect(text).toContain("Postcode must be 8 digits.");
    expect(text).toContain("Please choose your state.");
    const placed = await portal.ctx.db.selectFrom("orders").select("id").where("order_form_id", "=", form.id).execute();
    expect(placed).toEqual([]);
  });
});

describe("the pay-many page", () => {
  let owner: TestUser;
  let c: Client;
  let numbers: string[];
  beforeAll(async () => {
    owner = await createResearcher(portal.ctx);
    c = await signIn(portal, owner);
    numbers = [];
    for (let i = 0; i < 2; i++) numbers.push((await createInvoice(portal.ctx, owner)).invoice.number);
  });

  it("lists the invoices with their total, and asks for a method", async () => {
    const path = `/en/researcher/invoices/pay/${numbers.join(",")}`;
    const html = await (await c.get(path)).text();
    expect(html).toContain("Payoff summary");
    for (const n of numbers) expect(html).toContain(n);
    const balances = await portal.ctx.db.selectFrom("invoices").select("balance").where("number", "in", numbers).execute();
    const total = balances.reduce((a, b) => a + Number(b.balance), 0);
    expect(html).toContain(formatMoney(total, { isoCode: "USD", sign: "$", numDecimals: 2 }));
    expect(html).toMatch(/name="paymentMethodId"[^>]*value="6"/);
    expect(html).not.toMatch(/name="paymentMethodId"[^>]*value="9"/);
    expect(html).not.toMatch(/name="paymentMethodId"[^>]*checked/);
    const key = keyOf(html)!;
    let r = await c.post(path, { idempotencyKey: key, acceptTerms: "on" });
    expect(r.status).toBe(400);
    const refused = await r.text();
    expect(refused).toContain("Please choose a payment method.");
    expect(keyOf(refused)).toBe(key);

    // A valid PayPal payment goes to the provider (303), or is declined while no sandbox is wired: then the
    // reason shows and the page carries a fresh key, so that trying again is a new attempt.
    const address = {
      "address.address1": "1 Main St",
      "address.city": "Durham",
      "address.state": "NC",
      "address.countryId": String(await countryId("US")),
    };
    r = await c.post(path, { idempotencyKey: key, acceptTerms: "on", paymentMethodId: "6", ...address });
    if (r.status === 303) expect(r.headers.get("location")).toBeTruthy();
    else {
      expect(r.status).toBe(400);
      const declined = await r.text();
      expect(declined).toContain("There was a problem saving your payment: ");
      expect(keyOf(declined)).not.toBe(key);
    }
  });

  it("is a 404 for another user's, an unknown or a paid invoice", async () => {
    const other = await createResearcher(portal.ctx);
    const foreign = await createInvoice(portal.ctx, other);
    expect((await c.get(`/en/researcher/invoices/pay/${foreign.invoice.number}`)).status).toBe(404);
    expect((await c.get(`/en/researcher/invoices/pay/${numbers[0]},${foreign.invoice.number}`)).status).toBe(404);
    expect((await c.get("/en/researcher/invoices/pay/INV-NOPE")).status).toBe(404);
    const paid = await createInvoice(portal.ctx, owner);
    const staff = await createStaff(portal.ctx);
    await payInFull(portal.ctx, { userId: staff.id }, paid.invoice.order_id!);
    expect((await c.get(`/en/researcher/invoices/pay/${paid.invoice.number}`)).status).toBe(404);
    expect(
      (await c.post(`/en/researcher/invoices/pay/${foreign.invoice.number}`, { paymentMethodId: "6", acceptTerms: "on" })).status,
    ).toBe(404);
  });

  it("POST /api/payoff/payment: needs the key, the user's own invoices and a valid form", async () => {
    const body = {
      paymentMethodId: 6,
      acceptedTermsAndConditions: true,
      additionalData: { payoffReceiptCodes: numbers },
      billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: await countryId("US") } },
    };
    // The form's data: reference data alone, or for these invoices (another user's: 404).
    const reference = await (await c.get("/api/payment/load")).json();
    expect(reference.countries.find((x: { iso2: string }) => x.iso2 === "BR").states.length).toBeGreaterThan(0);
    expect(reference.currencies.map((x: { isoCode: string }) => x.isoCode)).not.toContain("CNY");
    const load = await (await c.get(`/api/payment/load?invoiceNumbers=${numbers.join(",")}`)).json();
    expect(load.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual(numbers);
    expect(load.methods.map((m: { id: number }) => m.id)).not.toContain(9);

    let r = await payoff(c, body);
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: "idempotency-key-required" });

    const other = await createResearcher(portal.ctx);
    const foreign = await createInvoice(portal.ctx, other);
    r = await payoff(c, { ...body, additionalData: { payoffReceiptCodes: [foreign.invoice.number] } }, "k-foreign-0001");
    expect(r.status).toBe(404);
    expect((await c.get(`/api/payment/load?invoiceNumbers=${foreign.invoice.number}`)).status).toBe(404);

    r = await payoff(c, { ...body, acceptedTermsAndConditions: false, billingAddress: { city: "Durham" } }, "k-bad-00000001");
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({
      error: "payment-accept-terms-and-conditions-failure",
      fieldErrors: {
        acceptTerms: "payment-accept-terms-and-conditions-failure",
        "address.address1": "address1-required",
        "address.countryId": "country-required",
      },
    });
    r = await payoff(c, { ...body, paymentMethodId: 9 }, "k-bank-0000001");
    expect(await r.json()).toEqual({ error: "payment-method-required" });

    // A valid form reaches the payment service: a payment row for both invoices, answered the same on a retry
    // (200 pending with PayPal's approval page, the sandbox's).
    const paymentsOf = () => portal.ctx.db.selectFrom("payments").select("invoice_numbers").where("user_id", "=", owner.id).execute();
    // The PayPal order the page opened above still waits: one open attempt per invoice (ADR 051) sends the
    // caller to it. Once it ended (cancelled at PayPal), a new attempt is made.
    r = await payoff(c, body, "k-good-0000001");
    expect([r.status, (await r.json()).error]).toEqual([409, "payment-pending"]);
    await portal.ctx.db
      .updateTable("payments")
      .set({ status: "cancelled" })
      .where("user_id", "=", owner.id)
      .where("status", "=", "pending")
      .execute();
    const before = (await paymentsOf()).length;
    r = await payoff(c, body, "k-good-0000001");
    const first = await r.json();
    expect(r.status).toBe(200);
    expect(first.payment).toMatchObject({ status: "pending" });
    const again = await payoff(c, body, "k-good-0000001");
    expect(again.status).toBe(r.status);
    expect(await again.json()).toEqual(first);
    const payments = await paymentsOf();
    expect(payments).toHaveLength(before + 1);
    expect([...payments[payments.length - 1].invoice_numbers].sort()).toEqual([...numbers].sort());
  });
});

async function countryId(iso2: string): Promise<number> {
  return (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", iso2).executeTakeFirstOrThrow()).id;
}

describe("one charge however often a payment is sent", () => {
  it("50 concurrent card payments of the same invoices with one Idempotency-Key: one payment row, one charge, one answer", async () => {
    const owner = await createResearcher(portal.ctx);
    const c = await signIn(portal, owner);
    const a = await createInvoice(portal.ctx, owner);
    const b = await createInvoice(portal.ctx, owner);
    const numbers = [a.invoice.number, b.invoice.number];
    const body = {
      paymentMethodId: 3,
      acceptedTermsAndConditions: true,
      additionalData: { payoffReceiptCodes: numbers },
      creditCard: { nonce: "fake-valid-nonce~concurrent50", currency: "USD" },
      billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: await countryId("US") } },
    };
    const answers = await Promise.all(Array.from({ length: 50 }, () => payoff(c, body, "k-concurrent-50")));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    for (const x of bodies) expect(x).toEqual(bodies[0]);
    expect(bodies[0].payment).toMatchObject({ status: "succeeded", redirectUrl: "/en/researcher/invoices/unpaid/success" });
    const payments = await portal.ctx.db.selectFrom("payments").select(["status", "amount"]).where("user_id", "=", owner.id).execute();
    expect(payments.map((p) => p.status)).toEqual(["succeeded"]);
    expect(Number(payments[0].amount)).toBe(Number(a.invoice.amount) + Number(b.invoice.amount));
    const ledger = await portal.ctx.db.selectFrom("invoice_payments").select("amount").where("invoice_number", "in", numbers).execute();
    expect(ledger).toHaveLength(2);
    // Another key for the same, now paid, invoices charges nothing more: they are no longer payable (404).
    const again = await payoff(c, { ...body, creditCard: { nonce: "fake-valid-nonce~concurrent51", currency: "USD" } }, "k-concurrent-51");
    expect(again.status).toBe(404);
    expect(await portal.ctx.db.selectFrom("payments").select("id").where("user_id", "=", owner.id).execute()).toHaveLength(1);
  });
});
