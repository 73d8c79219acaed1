// Invoices over HTTP, without JavaScript (issue 12 §4–5, spec 2 §2, §7): the list and its GET filter (bad dates a
// translated 400), the unpaid view's selection sent on to the pay page (303), select-all, the landing after a
// payment (message + 303), the empty state, and the three PDFs (owner 200 application/pdf with the right text,
// another user 404, the statement 'pending' before delivery), plus GET /api/invoice/load.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { createCompletedOrder, createInvoice } from "../helpers/factories";
import { pdfText, recordProviderPayment } from "../helpers/invoices";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const html = async (c: Client, path: string) => {
  const r = await c.get(path);
  return { status: r.status, text: await r.text(), location: r.headers.get("location") };
};

describe("the invoice list without JavaScript", () => {
  let ada: SignedInUser;
  let open1: string;
  let open2: string;
  let paid: { invoiceNumber: string; externalId: string };

  beforeAll(async () => {
    ada = await portal.researcher();
    open1 = (await createInvoice(portal.ctx, ada, { projectTitle: "Soil bacteria under drought" })).invoice.number;
    open2 = (await createInvoice(portal.ctx, ada, { projectTitle: "Retreating glaciers" })).invoice.number;
    const done = await createCompletedOrder(portal.ctx, ada, { paid: true, projectTitle: "Coral reefs" });
    paid = { invoiceNumber: done.invoiceNumber!, externalId: done.externalId };
    await portal.ctx.db
      .updateTable("invoices")
      .set({ created_at: new Date("2026-03-10T12:00:00Z") })
      .where("number", "=", open1)
      .execute();
  });

  it("sends a visitor to sign in first", async () => {
    const r = await new Client(portal.url).get("/en/researcher/invoices");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe(`/en/login?redirect=${encodeURIComponent("/en/researcher/invoices")}`);
  });

  it("lists the user's invoices with their documents, and filters with a GET form", async () => {
    const page = await html(ada.client, "/en/researcher/invoices");
    expect(page.status).toBe(200);
    for (const s of [
      open1,
      open2,
      paid.invoiceNumber,
      "Soil bacteria under drought",
      `/api/invoice/${open1}/pdf`,
      `/api/invoice/${paid.invoiceNumber}/statement-of-delivery`,
    ])
      expect(page.text, s).toContain(s);
    expect(page.text).toContain("Statement of delivery: pending until delivery");
    expect(page.text).toMatch(/\/api\/payment\/\d+\/pdf/);
    expect(page.text).toContain(`/en/researcher/invoices/pay/${open2}`);
    expect(page.text).toContain('method="get"');

    const filtered = await html(ada.client, "/en/researcher/invoices?from=03/01/2026&to=03/31/2026");
    expect(filtered.status).toBe(200);
    expect(filtered.text).toContain(open1);
    expect(filtered.text).not.toContain(open2);
    const byOrder = await html(ada.client, `/en/researcher/invoices?orderNumber=${paid.externalId}`);
    expect(byOrder.text).toContain(paid.invoiceNumber);
    expect(byOrder.text).not.toContain(open1);

    const bad = await html(ada.client, "/cn/researcher/invoices?from=2026-03-01");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("请按 YYYY/MM/DD 格式输入日期。");
    expect((await html(ada.client, "/en/researcher/invoices/paid")).status).toBe(404);
  });

  it("lists only payable invoices in the unpaid view, and sends a selection to the pay page", async () => {
    const unpaid = await html(ada.client, "/en/researcher/invoices/unpaid");
    expect(unpaid.status).toBe(200);
    expect(unpaid.text).toContain(`value="${open1}"`);
    expect(unpaid.text).toContain(`value="${open2}"`);
    expect(unpaid.text).not.toContain(paid.invoiceNumber);
    expect(unpaid.text).toContain("Pay selected invoices");

    const pay = await html(ada.client, `/en/researcher/invoices/unpaid?invoice=${open2}&invoice=${open1}&intent=pay`);
    expect(pay.status).toBe(303);
    expect(pay.location).toBe(`/en/researcher/invoices/pay/${encodeURIComponent(`${open2},${open1}`)}`);

    // Nothing payable chosen (none, or a paid invoice): the list again with the error, 400.
    for (const q of ["intent=pay", `invoice=${paid.invoiceNumber}&intent=pay`]) {
      const refused = await html(ada.client, `/en/researcher/invoices/unpaid?${q}`);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("Select at least one unpaid invoice to pay.");
    }
    const all = await html(ada.client, "/en/researcher/invoices/unpaid?intent=select-all");
    expect(all.text).toMatch(/Selected 2 invoice\(s\) totaling \$[\d,]+/);
    expect(all.text).toContain(`/en/researcher/invoices/pay/`);
  });

  it("lands after a payment with its message on the unpaid list (303)", async () => {
    const ok = await html(ada.client, "/en/researcher/invoices/unpaid/success");
    expect(ok.status).toBe(303);
    expect(ok.location).toBe("/en/researcher/invoices/unpaid?payment=success");
    expect((await html(ada.client, ok.location!)).text).toContain("your payment is being processed");
    const failed = await html(ada.client, "/br/researcher/invoices/unpaid/declined");
    expect(failed.location).toBe("/br/researcher/invoices/unpaid?payment=error");
    expect((await html(ada.client, failed.location!)).text).toContain("Ocorreu um erro ao processar seu pagamento");
  });

  it("speaks the page's language on /cn and /br: no English label of the list", async () => {
    const english = ["Invoice (PDF)", "Statement of delivery", "Payment receipt", "Balance", "Unpaid", "Paid", "Order number", "Reset"];
    for (const lang of ["cn", "br"]) {
      for (const view of ["", "/unpaid?intent=select-all"]) {
        const text = (await html(ada.client, `/${lang}/researcher/invoices${view}`)).text.replace(/<script[\s\S]*?<\/script>/g, "");
        for (const s of english) expect(text, `${lang}${view}: ${s}`).not.toContain(`>${s}<`);
      }
    }
    const cn = (await html(ada.client, "/cn/researcher/invoices/unpaid?intent=select-all")).text;
    expect(cn).toMatch(/已选择 2 张发票，合计 \$[\d,]+/);
    expect(cn).toContain("发票（PDF）");
  });

  it("shows the empty state to a user without invoices and to one whose invoices are hidden", async () => {
    const bea = await portal.researcher();
    expect((await html(bea.client, "/en/researcher/invoices")).text).toContain("You do not have any invoices");
    const cai = await portal.researcher();
    await createInvoice(portal.ctx, cai);
    await portal.ctx.db.updateTable("users").set({ hide_invoices: true }).where("id", "=", cai.id).execute();
    const hidden = await html(cai.client, "/en/researcher/invoices");
    expect(hidden.text).toContain("You do not have any invoices");
    expect(hidden.text).not.toContain("/api/invoice/INV");
  });
});

describe("the documents and the API", () => {
  let owner: SignedInUser;
  let other: SignedInUser;
  let pending: string;
  let delivered: string;
  let ledgerId: string;

  beforeAll(async () => {
    owner = await portal.researcher({ language: "cn" });
    other = await portal.researcher();
    pending = (await createInvoice(portal.ctx, owner)).invoice.number;
    delivered = (await createCompletedOrder(portal.ctx, owner, { paid: false })).invoiceNumber!;
    ledgerId = (await recordProviderPayment(portal.ctx, delivered, { amount: 1000, methodId: 3, sandbox: true })).ledgerId;
  });

  async function pdf(c: Client, path: string) {
    const r = await c.get(path);
    const body = Buffer.from(await r.arrayBuffer());
    return { status: r.status, type: r.headers.get("content-type"), body };
  }

  it("serves the invoice, the statement and the receipt to their owner as PDFs in the invoice's language", async () => {
    const invoice = await pdf(owner.client, `/api/invoice/${pending}/pdf`);
    expect(invoice.status).toBe(200);
    expect(invoice.type).toBe("application/pdf");
    expect(invoice.body.subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect(await pdfText(invoice.body)).toContain(`发票号${pending}`);

    const statement = await pdf(owner.client, `/api/invoice/${delivered}/statement-of-delivery`);
    expect(statement.status).toBe(200);
    expect(statement.type).toBe("application/pdf");
    expect(await pdfText(statement.body)).toContain("交付证明");

    const receipt = await pdf(owner.client, `/api/payment/${ledgerId}/pdf`);
    expect(receipt.status).toBe(200);
    const text = await pdfText(receipt.body);
    expect(text).toContain("付款收据");
    expect(text).toContain("测试模式");
  });

  it("answers 'pending' for the statement before delivery, and 404 for another user's documents", async () => {
    const early = await owner.client.get(`/api/invoice/${pending}/statement-of-delivery`);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ statementOfDelivery: { status: "pending" } });
    for (const path of [`/api/invoice/${pending}/pdf`, `/api/invoice/${delivered}/statement-of-delivery`, `/api/payment/${ledgerId}/pdf`]) {
      const r = await other.client.get(path);
      expect(r.status, path).toBe(404);
    }
    expect((await new Client(portal.url).get(`/api/invoice/${pending}/pdf`)).status).toBe(401);
  });

  it("loads the invoices as JSON (GET /api/invoice/load)", async () => {
    const r = await owner.client.get("/api/invoice/load");
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body).toMatchObject({ credits: [], prepayments: [], usdCredits: 0, currency: { isoCode: "USD" }, voucherAvailable: true });
    expect(body.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber).sort()).toEqual([pending, delivered].sort());
    expect(body.unpaidInvoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toContain(pending);
    expect(Array.isArray(body.pendingPayments) && Array.isArray(body.paymentMethods)).toBe(true);
    const bad = await owner.client.get("/api/invoice/load?from=yesterday");
    expect(bad.status).toBe(400);
  });
});
