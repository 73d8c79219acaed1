// The staff payments console over HTTP without JavaScript (issue 12 §8): every page 200 for staff, 403 for a
// researcher, a visitor sent to sign in; the write-off and voucher forms (POST → 303 → GET); bad input answered
// 4xx with a translated message; the refund form's checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createInvoice, createResearcher } from "../helpers/factories";

let portal: TestPortal;
let staff: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  staff = await portal.staff();
});
afterAll(async () => portal.stop());

async function expect303(r: Response, to: RegExp) {
  expect(r.status, await r.clone().text()).toBe(303);
  expect(r.headers.get("location")).toMatch(to);
}

async function cardPayment(userId: number, invoiceNumber: string) {
  return portal.ctx.db
    .insertInto("payments")
    .values({
      user_id: userId,
      purpose: "invoices",
      invoice_numbers: JSON.stringify([invoiceNumber]),
      method_id: 3,
      provider: "card",
      status: "succeeded",
      amount: 4000,
      currency_iso: "USD",
      provider_ref: `http-${Date.now()}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

describe("staff payments console access", () => {
  it("shows every page to staff, 403 to a researcher, and sends a visitor to sign in", async () => {
    const { client: researcher, ...user } = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, user);
    const payment = await cardPayment(user.id, invoice.number);
    const pages = [
      "/en/staff/payments",
      `/en/staff/payments?invoice=${invoice.number}&status=succeeded&method=3`,
      `/en/staff/payments/${payment.id}`,
      `/en/staff/invoices/${invoice.number}`,
      "/en/staff/vouchers",
    ];
    const visitor = new Client(portal.url);
    for (const page of pages) {
      const r = await staff.client.get(page);
      expect(r.status, page).toBe(200);
      expect((await researcher.get(page)).status, page).toBe(403);
      const v = await visitor.get(page);
      expect([302, 303], page).toContain(v.status);
      expect(v.headers.get("location"), page).toMatch(/^\/en\/login\?redirect=/);
    }
    const list = await (await staff.client.get(`/en/staff/payments?invoice=${invoice.number}`)).text();
    expect(list).toContain(`/en/staff/payments/${payment.id}`);
    expect(list).toContain("Payments found: 1");
    const detail = await (await staff.client.get(`/en/staff/payments/${payment.id}`)).text();
    expect(detail).toContain("Up to $40 can be refunded.");
    const cn = await staff.client.get("/cn/staff/payments");
    expect(await cn.text()).toContain("搜索付款");
    expect((await staff.client.get("/en/staff/payments/00000000-0000-0000-0000-000000000000")).status).toBe(404);
    expect((await staff.client.get("/en/staff/invoices/NO-SUCH")).status).toBe(404);
    expect((await staff.client.get("/en/staff/payments?status=lost")).status).toBe(400);

    for (const [path, form] of [
      [`/en/staff/invoices/${invoice.number}`, { intent: "writeoff", note: "" }],
      ["/en/staff/vouchers", { intent: "create", kind: "percent", percent: "90" }],
      [`/en/staff/payments/${payment.id}`, { intent: "refund", amount: "1", reason: "x" }],
    ] as const) {
      expect((await researcher.post(path, form)).status, path).toBe(403);
    }
    const row = await portal.ctx.db.selectFrom("invoices").select("status").where("number", "=", invoice.number).executeTakeFirstOrThrow();
    expect(row.status).toBe("unpaid");
    expect(await portal.ctx.db.selectFrom("vouchers").select("id").where("percent", "=", 90).execute()).toEqual([]);
  });
});

describe("write-off without JavaScript", () => {
  it("marks pending, writes off, and answers a repeat without a second ledger row", async () => {
    const user = await createResearcher(portal.ctx);
    const { invoice, order } = await createInvoice(portal.ctx, user);
    const path = `/en/staff/invoices/${invoice.number}`;
    await expect303(await staff.client.post(path, { intent: "pending-writeoff", note: "" }), /\?done=pending-writeoff$/);
    expect(await (await staff.client.get(`${path}?done=pending-writeoff`)).text()).toContain("The invoice is marked for write-off.");
    await expect303(await staff.client.post(path, { intent: "writeoff", note: "Goodwill" }), /\?done=writeoff$/);
    const page = await (await staff.client.get(`${path}?done=writeoff`)).text();
    expect(page).toContain("The invoice has been written off.");
    expect(page).toContain("Write-off");
    await expect303(await staff.client.post(path, { intent: "writeoff", note: "" }), /\?done=already$/);
    // The order's history names both steps.
    const orderPage = await (await staff.client.get(`/en/staff/orders/${order.externalId}`)).text();
    expect(orderPage).toContain("Invoice marked for write-off");
    expect(orderPage).toContain("Invoice written off");
    const rows = await portal.ctx.db.selectFrom("invoice_payments").select("kind").where("invoice_number", "=", invoice.number).execute();
    expect(rows).toEqual([{ kind: "writeoff" }]);
    const bad = await staff.client.post(path, { intent: "shred" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("The form could not be read.");
  });
});

describe("vouchers without JavaScript", () => {
  it("creates (code generated or typed), refuses bad input with messages, and deactivates", async () => {
    const typed = `SPRING-${Date.now()}`;
    await expect303(
      await staff.client.post("/en/staff/vouchers", {
        intent: "create",
        code: typed.toLowerCase(),
        kind: "amount",
        amount: "25",
        currencyIso: "EUR",
        maxUses: "10",
      }),
      new RegExp(`\\?created=${typed}$`),
    );
    const page = await (await staff.client.get(`/en/staff/vouchers?created=${typed}`)).text();
    expect(page).toContain(`Voucher ${typed} has been created.`);
    expect(page).toContain("€25");
    const generated = await staff.client.post("/en/staff/vouchers", { intent: "create", code: "", kind: "percent", percent: "5" });
    expect(generated.status).toBe(303);
    expect(generated.headers.get("location")).toMatch(/\?created=[2-9A-HJ-NP-Z]{12}$/);

    const bad = await staff.client.post("/en/staff/vouchers", { intent: "create", code: typed, kind: "percent", percent: "0" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("This code is already in use.");
    expect(html).toContain("Please enter a whole percentage from 1 to 100.");

    const row = await portal.ctx.db.selectFrom("vouchers").select("id").where("code", "=", typed).executeTakeFirstOrThrow();
    await expect303(await staff.client.post("/en/staff/vouchers", { intent: "deactivate", id: String(row.id) }), /\?deactivated=/);
    const after = await portal.ctx.db.selectFrom("vouchers").select("active").where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after.active).toBe(false);
    expect((await staff.client.post("/en/staff/vouchers", { intent: "deactivate", id: "999999" })).status).toBe(404);
  });

  it("checks a refund's amount and reason before any provider is asked", async () => {
    const user = await createResearcher(portal.ctx);
    const { invoice } = await createInvoice(portal.ctx, user);
    const payment = await cardPayment(user.id, invoice.number);
    const r = await staff.client.post(`/en/staff/payments/${payment.id}`, { intent: "refund", amount: "40.01", reason: "" });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("The amount is more than can be refunded.");
    expect(html).toContain("Please give a reason for the refund.");
    const events = await portal.ctx.db.selectFrom("payment_events").select("id").where("payment_id", "=", payment.id).execute();
    expect(events).toEqual([]);
  });

  it("names the invoice's order, says events in the page's language, prefills reais with a comma and sends a boleto's refund to a transfer", async () => {
    const user = await createResearcher(portal.ctx);
    const { invoice, order } = await createInvoice(portal.ctx, user);
    const card = await cardPayment(user.id, invoice.number);
    await portal.ctx.db
      .insertInto("payment_events")
      .values({ payment_id: card.id, provider: "card", kind: "notification", verified: true, outcome: "succeeded", data: "{}" })
      .execute();
    const br = await (await staff.client.get(`/br/staff/payments/${card.id}`)).text();
    // The order the paid invoice belongs to, linked; the event's kind and outcome translated; no raw provider id.
    expect(br).toContain(`>${order.externalId}</a>`);
    expect(br).toContain("Notificação do provedor");
    expect(br).toContain("Concluído");
    expect(br).not.toContain("(card)");
    const boleto = await portal.ctx.db
      .insertInto("payments")
      .values({
        user_id: user.id,
        purpose: "invoices",
        invoice_numbers: JSON.stringify([invoice.number]),
        method_id: 20,
        provider: "boleto",
        status: "succeeded",
        amount: 84000,
        currency_iso: "BRL",
        provider_ref: `boleto-${Date.now()}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const page = await (await staff.client.get(`/br/staff/payments/${boleto.id}`)).text();
    expect(page).toContain("devolva o dinheiro ao pesquisador por transferência bancária");
    expect(page).not.toContain('name="amount"');
    // A BRL card payment's refund is prefilled as Brazilians write it.
    const reais = await portal.ctx.db
      .insertInto("payments")
      .values({
        user_id: user.id,
        purpose: "invoices",
        invoice_numbers: JSON.stringify([invoice.number]),
        method_id: 3,
        provider: "card",
        status: "succeeded",
        amount: 84000,
        currency_iso: "BRL",
        provider_ref: `card-brl-${Date.now()}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(await (await staff.client.get(`/br/staff/payments/${reais.id}`)).text()).toContain('value="840,00"');
  });
});
