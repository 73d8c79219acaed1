// Issue 22 item 5, billing states (ADR 067), over HTTP without JavaScript: the order panel's invoice PDF, fapiao and
// staff's record-payment links; the prepay form with bank transfer disabled by default (spec 2 §6, spec 3 §6) and
// enabled by config `prepayBankTransfer`; prepay_enabled off hiding the prepay links (404 for a retainer's page);
// USD amounts on the pay page when the invoices' currencies differ.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createCompletedOrder, createInvoice } from "../helpers/factories";
import { seedCredit } from "../helpers/balances";

let portal: TestPortal;
beforeAll(async () => {
  // The spec's default: no CONFIG_PREPAY_BANK_TRANSFER (the other suites run as an installation that allows it).
  portal = await startRelaxedPortal({ CONFIG_PREPAY_BANK_TRANSFER: undefined });
});
afterAll(async () => portal.stop());

const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const bankRadio = (html: string) => /<input[^>]*class="pm-radio pm-radio-9"[^>]*>/.exec(html)?.[0] ?? null;

/** The prepay page's amount step: Next with `amount`; the page with the payment form. */
async function lockAmount(user: SignedInUser, amount = "500"): Promise<string> {
  const r = await user.client.post("/en/researcher/prepay", { intent: "amount", amount });
  expect(r.status).toBe(200);
  return r.text();
}

describe("the order panel's invoice links (spec 2 §2 'Order panel')", () => {
  it("links the invoice PDF; a paid invoice of the China site offers its fapiao; another user's invoice never shows", async () => {
    const ada = await portal.researcher();
    const { order } = await createInvoice(portal.ctx, ada);
    const html = await (await ada.client.get("/en/researcher")).text();
    expect(html).toContain(`href="/api/invoice/${order.invoiceNumber}/pdf"`);
    expect(html).toContain("Invoice (PDF)");
    // Unpaid, US site: no fapiao link, and no record-payment link for the researcher.
    expect(html).not.toContain(`/researcher/invoices/${order.invoiceNumber}/fapiao`);
    expect(html).not.toContain("#so-payment");

    const li = await portal.researcher({ country: "CN", countryCode: "CN", phoneNumber: "13800138000", language: "cn" });
    const paid = await createCompletedOrder(portal.ctx, li);
    await portal.ctx.db.updateTable("invoices").set({ localization: "CN" }).where("number", "=", paid.invoiceNumber!).execute();
    const cn = await (await li.client.get("/cn/researcher")).text();
    expect(cn).toContain(`href="/cn/researcher/invoices/${paid.invoiceNumber}/fapiao"`);
    expect(cn).toContain("申请发票");
    expect(cn).not.toContain(order.invoiceNumber);

    // Once asked for, the panel says its status instead of the request.
    const asked = await li.client.post(`/cn/researcher/invoices/${paid.invoiceNumber}/fapiao`, {
      intent: "create",
      type: "special",
      deliveryTimeline: "express",
      title: "深圳市腾讯计算机系统有限公司",
      taxpayerNumber: "91440300708461136T",
    });
    expect(asked.status).toBeLessThan(400);
    const after = await (await li.client.get("/cn/researcher")).text();
    expect(after).toContain("发票：已申请");
    expect(after).not.toContain(`href="/cn/researcher/invoices/${paid.invoiceNumber}/fapiao"`);
  });

  it("gives staff acting for the researcher a 'Record a payment' link to the staff order page", async () => {
    const staff = await portal.staff();
    const ada = await portal.researcher();
    const { order } = await createInvoice(portal.ctx, ada);
    const own = await (await ada.client.get("/en/researcher")).text();
    expect(own).not.toContain("order-panel-record-payment");
    expect((await staff.client.post("/en/staff?index", { identity: ada.identity })).status).toBe(303);
    const acting = await (await staff.client.get("/en/researcher")).text();
    expect(acting).toContain(`value="/en/staff/orders/${order.externalId}#so-payment"`);
    expect(acting).toMatch(/order-panel-record-payment"[^>]*>Record a payment \(staff\)</);
    expect(acting).toContain('action="/en/staff/stop-impersonation"');
    // The link leaves "view as" (a POST) for the staff order page, where payments are recorded.
    const left = await staff.client.post("/en/staff/stop-impersonation", { next: `/en/staff/orders/${order.externalId}#so-payment` });
    expect(left.status).toBe(303);
    expect(left.headers.get("location")).toBe(`/en/staff/orders/${order.externalId}#so-payment`);
    const target = await staff.client.get(`/en/staff/orders/${order.externalId}`);
    expect(target.status).toBe(200);
    expect(await target.text()).toContain('id="so-payment"');
    // Anywhere but the staff area is refused: the staff home.
    expect((await staff.client.post("/en/staff?index", { identity: ada.identity })).status).toBe(303);
    const away = await staff.client.post("/en/staff/stop-impersonation", { next: "https://evil.example/en/staff/x" });
    expect(away.headers.get("location")).toBe("/en/staff");
  });
});

describe("the prepay form's bank transfer (spec 2 §6, spec 3 §6; config prepayBankTransfer)", () => {
  it("shows bank transfer disabled by default and refuses a prepayment posted with it", async () => {
    const ada = await portal.researcher();
    const html = await lockAmount(ada);
    expect(bankRadio(html)).toMatch(/disabled/);
    const r = await ada.client.post("/en/researcher/prepay", {
      idempotencyKey: keyOf(html)!,
      amount: "500",
      paymentMethodId: "9",
      acceptTerms: "on",
    });
    expect(r.status).toBe(400);
    const retainers = await portal.ctx.db
      .selectFrom("invoices")
      .select("number")
      .where("user_id", "=", ada.id)
      .where("kind", "=", "prepayment")
      .execute();
    expect(retainers).toEqual([]);
    // The API says the same.
    const api = await ada.client.request("/api/payment/load?purpose=prepay", { headers: { accept: "application/json" } });
    expect(api.status).toBeLessThan(500);
  });

  it("lets bank transfer be chosen where the configuration allows it: the retainer issued unpaid", async () => {
    await portal.ctx.config.setConfig("prepayBankTransfer", true);
    try {
      const ada = await portal.researcher();
      const html = await lockAmount(ada);
      expect(bankRadio(html)).not.toMatch(/disabled/);
      const r = await ada.client.post("/en/researcher/prepay", {
        idempotencyKey: keyOf(html)!,
        amount: "500",
        paymentMethodId: "9",
        acceptTerms: "on",
      });
      expect(r.status).toBe(303);
      expect(r.headers.get("location")).toMatch(/\/en\/researcher\/prepay\/P[A-Z]+\d+\?issued=1$/);
    } finally {
      await portal.ctx.config.setConfig("prepayBankTransfer", false);
    }
  });
});

describe("prepay_enabled off (spec 2 §2 'Prepay')", () => {
  it("hides the prepay links (dashboard widget, a retainer's Pay link) and answers 404 for a retainer's page", async () => {
    const ada = await portal.researcher();
    await seedCredit(portal.ctx, ada.id, 5_000);
    // An unpaid retainer invoice, issued while the installation allowed bank transfer.
    await portal.ctx.config.setConfig("prepayBankTransfer", true);
    let number: string;
    try {
      const html = await lockAmount(ada);
      const r = await ada.client.post("/en/researcher/prepay", {
        idempotencyKey: keyOf(html)!,
        amount: "500",
        paymentMethodId: "9",
        acceptTerms: "on",
      });
      number = /\/prepay\/(P[A-Z]+\d+)\?/.exec(r.headers.get("location") ?? "")![1];
    } finally {
      await portal.ctx.config.setConfig("prepayBankTransfer", false);
    }
    const on = await (await ada.client.get("/en/researcher")).text();
    expect(on).toContain('href="/en/researcher/prepay"');
    expect(await (await ada.client.get("/en/researcher/prepay")).text()).toContain(`href="/en/researcher/prepay/${number}"`);

    await portal.ctx.config.setFlag("prepay_enabled", false);
    try {
      const dashboard = await (await ada.client.get("/en/researcher")).text();
      // The balance still shows (credits pay orders and invoices); the way to the prepay page does not.
      expect(dashboard).toContain("Prepay and credits");
      expect(dashboard).not.toContain('href="/en/researcher/prepay"');
      const page = await (await ada.client.get("/en/researcher/prepay")).text();
      expect(page).toContain("Prepayments are currently disabled.");
      expect(page).toContain(number);
      expect(page).not.toContain(`href="/en/researcher/prepay/${number}"`);
      expect((await ada.client.get(`/en/researcher/prepay/${number}`)).status).toBe(404);
      expect((await ada.client.post("/en/researcher/prepay", { intent: "amount", amount: "500" })).status).toBe(403);
    } finally {
      await portal.ctx.config.setFlag("prepay_enabled", true);
    }
  });
});

describe("USD display when currencies differ (spec 2 §2 'Pay screen')", () => {
  it("pays a euro invoice and a dollar invoice together in US dollars, the euro one shown converted", async () => {
    const ada = await portal.researcher();
    const eur = await createInvoice(portal.ctx, ada, { currencyIso: "EUR" });
    const usd = await createInvoice(portal.ctx, ada);
    expect(eur.invoice.currency_iso.trim()).toBe("EUR");
    const html = await (await ada.client.get(`/en/researcher/invoices/pay/${eur.invoice.number},${usd.invoice.number}`)).text();
    // Every amount of the summary in dollars; no euro amount but the invoice's own base line.
    const summary = html.slice(html.indexOf("payoff-summary"));
    expect(summary).toMatch(/\$\d/);
    expect(html).toMatch(/Invoices to pay: 2\. Total: \$[\d,.]+\./);
    // One invoice alone is shown in its own currency.
    const alone = await (await ada.client.get(`/en/researcher/invoices/pay/${eur.invoice.number}`)).text();
    expect(alone).toContain("€");
  });
});
