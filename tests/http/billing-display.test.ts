// What the money pages say (issue 21 screenshot review): a converted invoice's USD base and rate on the pay page and
// pay-many as on the invoice list (ADR 052); a BRL payment's rate and USD base on its staff page; a provider's refusal
// in the page's language and as a reason key in the API, its own text kept for staff; a receipt's reference as the
// provider's own number, labelled by its method, never "alipay:<our uuid>"; and one name order on every page.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "#common/format";
import { rateText } from "#common/invoices/list";
import { USD } from "#common/money";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { startRelaxedPortal, type Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createInvoice } from "../helpers/factories";
import { pdfText, recordProviderPayment } from "../helpers/invoices";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const BR = { country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL" } as const;
const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const countryId = async (iso2: string) =>
  (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", iso2).executeTakeFirstOrThrow()).id;

describe("the pay page of a converted invoice", () => {
  let ana: SignedInUser;
  let brl: { number: string; usd: number; rate: string };

  beforeAll(async () => {
    ana = await portal.researcher(BR);
    const { invoice } = await createInvoice(portal.ctx, ana, { projectTitle: "Reais", currencyIso: "BRL" });
    brl = { number: invoice.number, usd: Number(invoice.usd_total), rate: invoice.exchange_rate! };
    expect(Number(brl.rate)).toBeGreaterThan(1);
  });

  it("shows the invoice's USD base and rate at issue, as the invoice list does", async () => {
    const br = await (await ana.client.get(`/br/researcher/invoices/pay/${brl.number}`)).text();
    expect(br).toContain(`${formatMoney(brl.usd, USD)} (1 USD = ${rateText(brl.rate, "pt-BR")} BRL)`);
    const en = await (await ana.client.get(`/en/researcher/invoices/pay/${brl.number}`)).text();
    expect(en).toContain(`${formatMoney(brl.usd, USD)} (1 USD = ${rateText(brl.rate, "en-US")} BRL)`);
  });

  it("shows each converted invoice's on pay-many, none for a USD invoice", async () => {
    const { invoice: second } = await createInvoice(portal.ctx, ana, { projectTitle: "Mais reais", currencyIso: "BRL" });
    const { invoice: dollars } = await createInvoice(portal.ctx, ana, { projectTitle: "Dollars", currencyIso: "USD" });
    const html = await (await ana.client.get(`/br/researcher/invoices/pay/${brl.number},${second.number},${dollars.number}`)).text();
    expect(html).toContain(`${formatMoney(brl.usd, USD)} (1 USD = ${rateText(brl.rate, "pt-BR")} BRL)`);
    expect(html).toContain(`${formatMoney(Number(second.usd_total), USD)} (1 USD = ${rateText(second.exchange_rate!, "pt-BR")} BRL)`);
    expect(html.match(/class="field-hint invoice-usd-base"/g)).toHaveLength(2);
  });

  it("shows a BRL payment's rate and USD base on its staff page", async () => {
    const { invoice } = await createInvoice(portal.ctx, ana, { projectTitle: "Staff", currencyIso: "BRL" });
    const { paymentId } = await recordProviderPayment(portal.ctx, invoice.number, {
      amount: Number(invoice.amount),
      methodId: 3,
      sandbox: true,
    });
    const staff = await portal.staff();
    const html = await (await staff.client.get(`/en/staff/payments/${paymentId}`)).text();
    expect(html).toContain(`1 USD = ${rateText(invoice.exchange_rate!, "en-US")} BRL`);
    expect(html).toContain(`>${formatMoney(Number(invoice.usd_total), USD)}<`);
    expect(html).toContain(">USD base<");
    // A USD payment has neither.
    const { invoice: usd } = await createInvoice(portal.ctx, ana, { projectTitle: "USD", currencyIso: "USD" });
    const { paymentId: usdPayment } = await recordProviderPayment(portal.ctx, usd.number, { amount: 1000, methodId: 3, sandbox: true });
    expect(await (await staff.client.get(`/en/staff/payments/${usdPayment}`)).text()).not.toContain(">USD base<");
  });
});

describe("a provider's refusal", () => {
  async function cardForm(c: Client, path: string) {
    const html = await (await c.get(path)).text();
    expect(html).toMatch(new RegExp(`name="paymentMethodId"[^>]*value="${PAYMENT_METHOD.creditCard}"`));
    return {
      idempotencyKey: keyOf(html)!,
      acceptTerms: "on",
      paymentMethodId: String(PAYMENT_METHOD.creditCard),
      "address.address1": "1 Main St",
      "address.city": "Durham",
      "address.state": "NC",
      "address.zip": "27701",
      "address.countryId": String(await countryId("US")),
    };
  }

  it("is said in Portuguese on a pt-BR page, never the provider's English", async () => {
    const bia = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, bia, { projectTitle: "Recusado" });
    const path = `/br/researcher/invoices/pay/${invoice.number}`;
    // The card sandbox's declined test card: Braintree's 2000 "Do Not Honor".
    let r = await bia.client.post(path, {
      ...(await cardForm(bia.client, path)),
      nonce: `fake-processor-declined-visa-nonce~${randomUUID()}`,
    });
    expect(r.status).toBe(400);
    let html = await r.text();
    expect(html).toContain("O banco recusou o cartão. Nada foi cobrado");
    expect(html).not.toContain("Do Not Honor");
    // Without JavaScript the card has no nonce: the gateway's "Unknown or expired payment_method_nonce.".
    r = await bia.client.post(path, await cardForm(bia.client, path));
    expect(r.status).toBe(400);
    html = await r.text();
    expect(html).toContain("Os dados do cartão não foram aceitos ou expiraram.");
    expect(html).not.toContain("payment_method_nonce");
  });

  it("is a reason key in the API's answer and in the payment's status", async () => {
    const cai = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, cai, { projectTitle: "API" });
    const r = await cai.client.request("/api/payoff/payment", {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({
        paymentMethodId: PAYMENT_METHOD.creditCard,
        acceptedTermsAndConditions: true,
        additionalData: { payoffReceiptCodes: [invoice.number] },
        billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: await countryId("US") } },
        creditCard: { nonce: `fake-processor-declined-visa-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
      }),
    });
    expect(r.status).toBe(402);
    const body = await r.json();
    expect(body).toMatchObject({ error: "payment-declined", reason: "card-declined" });
    expect(body.message).toContain("Your bank declined the card.");
    expect(JSON.stringify(body)).not.toContain("Do Not Honor");
    // Staff still read the provider's own words and code.
    const row = await portal.ctx.db
      .selectFrom("payments")
      .select(["error", "details"])
      .where("id", "=", body.paymentId)
      .executeTakeFirstOrThrow();
    expect([row.error, (row.details as { declineCode?: string }).declineCode]).toEqual(["Do Not Honor", "2000"]);
    const status = await (await cai.client.get(`/api/payment/${body.paymentId}/status`)).json();
    expect(status).toMatchObject({ status: "failed", error: "card-declined" });
    // The failed payment's own page, in Portuguese.
    const page = await (await cai.client.get(`/br/researcher/payment/${body.paymentId}`)).text();
    expect(page).toContain("O banco recusou o cartão.");
    expect(page).not.toContain("Do Not Honor");
  });
});

describe("a receipt's reference", () => {
  /** A provider payment settled as settle() writes it: our reference `<provider>:<providerRef>`, the event it settled on. */
  async function settled(user: SignedInUser, provider: string, providerRef: (id: string) => string, eventData: Record<string, unknown>) {
    const { invoice } = await createInvoice(portal.ctx, user, { projectTitle: provider });
    const { ledgerId, paymentId } = await recordProviderPayment(portal.ctx, invoice.number, { amount: 1000, methodId: 3, sandbox: true });
    const ref = providerRef(paymentId);
    await portal.ctx.db.updateTable("payments").set({ provider, provider_ref: ref }).where("id", "=", paymentId).execute();
    await portal.ctx.db
      .updateTable("invoice_payments")
      .set({ reference: `${provider}:${ref}` })
      .where("id", "=", ledgerId)
      .execute();
    await portal.ctx.db
      .insertInto("payment_events")
      .values({
        payment_id: paymentId,
        provider,
        kind: "notification",
        event_id: randomUUID(),
        verified: true,
        outcome: "succeeded",
        data: JSON.stringify(eventData),
      })
      .execute();
    return { invoiceNumber: invoice.number, ledgerId, paymentId };
  }
  const pdf = async (c: Client, path: string) => {
    const r = await c.get(path);
    expect(r.status, path).toBe(200);
    return pdfText(new Uint8Array(await r.arrayBuffer()));
  };

  it("is Alipay's trade number, labelled, on the receipt and the invoice, never alipay:<our id>", async () => {
    const dan = await portal.researcher();
    const tradeNo = "2026112922001456789012345";
    const { invoiceNumber, ledgerId, paymentId } = await settled(dan, "alipay", (id) => id, { tradeNo, tradeStatus: "TRADE_SUCCESS" });
    const receipt = await pdf(dan.client, `/api/payment/${ledgerId}/pdf`);
    expect(receipt).toContain(`Alipaytradeno.${tradeNo}`);
    expect(receipt).not.toContain("alipay:");
    expect(receipt).not.toContain(paymentId);
    const invoice = await pdf(dan.client, `/api/invoice/${invoiceNumber}/pdf`);
    expect(invoice).toContain(`Alipaytradeno.${tradeNo}`);
    expect(invoice).not.toContain("alipay:");
    // In Chinese (a receipt speaks its invoice's language): 支付宝交易号.
    await portal.ctx.db.updateTable("invoices").set({ lang: "cn" }).where("number", "=", invoiceNumber).execute();
    expect(await pdf(dan.client, `/api/payment/${ledgerId}/pdf`)).toContain(`支付宝交易号${tradeNo}`);
  });

  it("is the boleto's number, labelled in Portuguese", async () => {
    const eva = await portal.researcher(BR);
    const { ledgerId, invoiceNumber } = await settled(eva, "boleto", () => "00012345678", { bankEventId: "evt-1" });
    expect(await pdf(eva.client, `/api/payment/${ledgerId}/pdf`)).toContain("Boletono.00012345678");
    await portal.ctx.db.updateTable("invoices").set({ lang: "br" }).where("number", "=", invoiceNumber).execute();
    const receipt = await pdf(eva.client, `/api/payment/${ledgerId}/pdf`);
    expect(receipt).toContain("Boletonº00012345678");
    expect(receipt).not.toContain("boleto:");
  });
});

describe("a name", () => {
  it("in Chinese script is written family name first on every page, as the PDFs write it; a Latin name keeps its order", async () => {
    const li = await portal.researcher({ firstName: "伟", lastName: "李" });
    const cn = await (await li.client.get("/cn/researcher")).text();
    expect(cn).toContain("李伟");
    expect(cn).not.toContain("伟 李");
    const en = await (await li.client.get("/en/researcher")).text();
    expect(en).toContain("李伟");
    expect(en).not.toContain("伟 李");
    const ada = await portal.researcher({ firstName: "Ada", lastName: "Lovelace" });
    expect(await (await ada.client.get("/cn/researcher")).text()).toContain("Ada Lovelace");
    const { invoice } = await createInvoice(portal.ctx, li, { projectTitle: "名字" });
    expect(
      await pdfText(new Uint8Array(await (await li.client.get(`/api/invoice/${invoice.number}/pdf?localization=CN`)).arrayBuffer())),
    ).toContain("李伟");
  });

  it("is the same on the staff payments list", async () => {
    const li = await portal.researcher({ firstName: "伟", lastName: "王" });
    const { invoice } = await createInvoice(portal.ctx, li, { projectTitle: "Staff list" });
    await recordProviderPayment(portal.ctx, invoice.number, { amount: 1000, methodId: 3, sandbox: true });
    const staff = await portal.staff();
    const cn = await (await staff.client.get(`/cn/staff/payments?email=${encodeURIComponent(li.email)}`)).text();
    expect(cn).toContain("王伟");
    expect(cn).not.toContain("伟 王");
  });
});
