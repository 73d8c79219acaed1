// Fapiao over HTTP (issue 13 §4): the fapiao page without JavaScript (POST → 303 → the list with its notice), the
// API (POST, GET, ?context=Paddle, organizations, PDF, DELETE) with good input, bad input and another user's ids,
// the staff desk (list, issue with a PDF upload, a non-PDF refused, 403 for researchers) and the payment form's
// fapiao question for a Chinese researcher on the US site.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createCompletedOrder, createInvoice, createOrderFormFor } from "../helpers/factories";

let portal: TestPortal;
let staff: SignedInUser;
let owner: SignedInUser;
let stranger: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  staff = await portal.staff();
  owner = await chinese();
  stranger = await chinese();
});
afterAll(async () => portal.stop());

const VALID = "91440300708461136T"; // Shenzhen Tencent Computer Systems Co., Ltd.
const BAD_CHECK = "91440300708461136U";
const PDF = "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";

function chinese() {
  return portal.researcher({ country: "CN", countryCode: "CN", phoneNumber: "13800138000", language: "cn" });
}

/** A paid invoice of the CN entity (factories place orders in the US scope; the CN site issues its own). */
async function paidCnInvoice(user: SignedInUser): Promise<{ number: string; order: string }> {
  const order = await createCompletedOrder(portal.ctx, user);
  await portal.ctx.db.updateTable("invoices").set({ localization: "CN" }).where("number", "=", order.invoiceNumber!).execute();
  return { number: order.invoiceNumber!, order: order.externalId };
}

const json = (c: Client, method: string, path: string, body?: unknown) =>
  c.request(path, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });

function multipart(fields: Record<string, string>, file?: { name: string; body: string }): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file) data.append("pdf", new Blob([file.body], { type: "application/pdf" }), file.name);
  return data;
}

describe("the invoice's fapiao page without JavaScript", () => {
  it("refuses a wrong check character (400, translated), then requests the fapiao (303 → the list's notice)", async () => {
    const invoice = await paidCnInvoice(owner);
    const page = `/cn/researcher/invoices/${invoice.number}/fapiao`;
    const get = await owner.client.get(page);
    expect(get.status).toBe(200);
    const html = await get.text();
    expect(html).toContain(`为订单 ${invoice.order} 申请发票`);
    expect(html).toContain("<title>申请发票");

    expect((await stranger.client.get(page)).status).toBe(404);
    const visitor = await new Client(portal.url).get(page);
    expect(visitor.headers.get("location")).toMatch(/^\/cn\/login\?redirect=/);

    const fields = { intent: "create", type: "special", deliveryTimeline: "express", title: "深圳市腾讯计算机系统有限公司" };
    const bad = await owner.client.post(page, { ...fields, taxpayerNumber: BAD_CHECK });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("纳税人识别号无效");
    const empty = await owner.client.post(page, { intent: "create" });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    for (const message of ["您必须选择发票类型", "您必须选择发票开具时间", "发票抬头为必填项", "纳税人识别号为必填项。"])
      expect(emptyHtml).toContain(message);

    const good = await owner.client.post(page, { ...fields, taxpayerNumber: VALID });
    expect(good.status, await good.clone().text()).toBe(303);
    expect(good.headers.get("location")).toBe("/cn/researcher/invoices?fapiao=created-special");
    const list = await (await owner.client.get(good.headers.get("location")!)).text();
    expect(list).toContain("您的增值税专用发票申请已提交");
    expect(list).toContain("已申请");
    // Another user posting to the owner's invoice: not found; the owner's second request: refused.
    expect((await stranger.client.post(page, { ...fields, taxpayerNumber: VALID })).status).toBe(404);
    const again = await owner.client.post(page, { ...fields, taxpayerNumber: VALID });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("此单据已申请过发票");
  });

  it("tells a researcher on a site without fapiao after payment to consult support", async () => {
    const american = await portal.researcher();
    const { invoice } = await createInvoice(portal.ctx, american);
    const r = await american.client.get(`/en/researcher/invoices/${invoice.number}/fapiao`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain("Fapiao for this document are not processed online");
  });
});

describe("the fapiao API", () => {
  it("creates (good, bad, another user's, twice), lists, suggests and cancels only what it may", async () => {
    const invoice = await paidCnInvoice(owner);
    const body = {
      invoiceNumber: invoice.number,
      type: { id: "general" },
      deliveryTimeline: "monthly",
      title: "腾讯科技（深圳）有限公司",
      taxpayerNumber: VALID,
    };
    const bad = await json(owner.client, "POST", "/api/fapiao", { ...body, taxpayerNumber: BAD_CHECK });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors).toEqual({ taxpayerNumber: "fapiao-taxpayer-number-error" });
    expect((await json(stranger.client, "POST", "/api/fapiao", body)).status).toBe(404);
    const created = await json(owner.client, "POST", "/api/fapiao", body);
    expect(created.status).toBe(200);
    const { error, fapiao } = await created.json();
    expect(error).toBeNull();
    expect(fapiao.type).toEqual({ id: "general", name: "general", label: expect.any(String) });
    expect((await json(owner.client, "POST", "/api/fapiao", body)).status).toBe(409);
    expect((await json(owner.client, "POST", "/api/fapiao", { ...body, invoiceNumber: "NOPE-1" })).status).toBe(404);

    const list = await (await json(owner.client, "GET", "/api/fapiao")).json();
    expect(list.fapiaos.map((f: { id: number }) => f.id)).toContain(fapiao.id);
    expect((await (await json(owner.client, "GET", "/api/fapiao?context=Paddle")).json()).fapiaos).toEqual([]);
    expect((await json(owner.client, "GET", "/api/fapiao?context=Other")).status).toBe(400);
    expect((await (await json(stranger.client, "GET", "/api/fapiao")).json()).fapiaos.map((f: { id: number }) => f.id)).not.toContain(
      fapiao.id,
    );

    const mine = await (await json(owner.client, "GET", `/api/fapiao/organizations?name=${encodeURIComponent("腾讯")}`)).json();
    expect(mine.organizations[0]).toEqual({ name: "腾讯科技（深圳）有限公司", taxpayerNumber: VALID });
    const theirs = await (await json(stranger.client, "GET", `/api/fapiao/organizations?name=${encodeURIComponent("腾讯科技")}`)).json();
    expect(theirs.organizations).toEqual([{ name: "腾讯科技（深圳）有限公司", taxpayerNumber: null }]);
    expect((await (await json(owner.client, "GET", "/api/fapiao/organizations?name=x")).json()).organizations).toEqual([]);

    // Still requested: not cancellable; another user's: not found; no PDF yet.
    expect((await json(owner.client, "DELETE", `/api/fapiao/${fapiao.id}`)).status).toBe(409);
    expect((await json(stranger.client, "DELETE", `/api/fapiao/${fapiao.id}`)).status).toBe(404);
    expect((await json(owner.client, "DELETE", "/api/fapiao/abc")).status).toBe(404);
    expect((await owner.client.get(`/api/fapiao/${fapiao.id}/pdf`)).status).toBe(404);
    expect((await new Client(portal.url).get("/api/fapiao")).status).toBe(401);
  });
});

describe("the staff desk", () => {
  it("lists requested fapiaos, refuses a non-PDF, issues with a PDF; the owner downloads and cancels it", async () => {
    const invoice = await paidCnInvoice(owner);
    const created = await json(owner.client, "POST", "/api/fapiao", {
      invoiceNumber: invoice.number,
      type: "special",
      deliveryTimeline: "express",
      title: "深圳市腾讯计算机系统有限公司",
      taxpayerNumber: VALID,
    });
    const { fapiao } = await created.json();
    const listPage = await staff.client.get("/en/staff/fapiaos");
    expect(listPage.status).toBe(200);
    expect(await listPage.text()).toContain(invoice.number);
    expect((await staff.client.get("/en/staff/fapiaos?status=bogus")).status).toBe(200);
    expect((await owner.client.get("/en/staff/fapiaos")).status).toBe(403);
    const page = `/en/staff/fapiaos/${fapiao.id}`;
    expect((await staff.client.get(page)).status).toBe(200);
    expect((await owner.client.get(page)).status).toBe(403);
    expect((await staff.client.get("/en/staff/fapiaos/999999")).status).toBe(404);

    const notPdf = await staff.client.request(page, {
      method: "POST",
      body: multipart({ intent: "issue", fapiaoNumber: "44031234" }, { name: "fapiao.pdf", body: "plain text" }),
    });
    expect(notPdf.status).toBe(400);
    expect(await notPdf.text()).toContain("Only a PDF file can be uploaded.");
    const wrongName = await staff.client.request(page, {
      method: "POST",
      body: multipart({ intent: "issue", fapiaoNumber: "44031234" }, { name: "fapiao.docx", body: PDF }),
    });
    expect(wrongName.status).toBe(400);
    const noFile = await staff.client.request(page, { method: "POST", body: multipart({ intent: "issue", fapiaoNumber: "44031234" }) });
    expect(noFile.status).toBe(400);

    const issued = await staff.client.request(page, {
      method: "POST",
      body: multipart({ intent: "issue", fapiaoNumber: "44031234" }, { name: "fapiao.pdf", body: PDF }),
    });
    expect(issued.status, await issued.clone().text()).toBe(303);
    expect(issued.headers.get("location")).toBe(`${page}?done=issued`);

    const pdf = await owner.client.get(`/api/fapiao/${fapiao.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await pdf.text()).toBe(PDF);
    expect((await stranger.client.get(`/api/fapiao/${fapiao.id}/pdf`)).status).toBe(404);
    expect((await staff.client.get(`/api/fapiao/${fapiao.id}/pdf`)).status).toBe(200);
    const invoices = await (await owner.client.get("/cn/researcher/invoices")).text();
    expect(invoices).toContain("44031234");
    expect(invoices).toContain(`/api/fapiao/${fapiao.id}/pdf`);

    // The page's cancel form (no-JS forms cannot send DELETE); another user's id on the owner's page: not found.
    const fapiaoPage = `/cn/researcher/invoices/${invoice.number}/fapiao`;
    expect(await (await owner.client.get(fapiaoPage)).text()).toContain("作废发票");
    expect((await stranger.client.post(fapiaoPage, { intent: "cancel", id: String(fapiao.id) })).status).toBe(404);
    const cancelled = await owner.client.post(fapiaoPage, { intent: "cancel", id: String(fapiao.id) });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("location")).toBe("/cn/researcher/invoices?fapiao=cancelled-special");
    expect(await (await owner.client.get(cancelled.headers.get("location")!)).text()).toContain("您的增值税专用发票已作废");
  });
});

describe("the order fapiao in the payment form", () => {
  const STEP = "/cn/researcher/submit/payment-details";
  async function chineseOnUs() {
    const u = await chinese();
    await portal.ctx.db.updateTable("users").set({ localization: "US" }).where("id", "=", u.id).execute();
    return u;
  }

  it("is not asked where no offered method can issue one (the pay page: card and PayPal)", async () => {
    const onUs = await chineseOnUs();
    const { invoice } = await createInvoice(portal.ctx, onUs);
    const html = await (await onUs.client.get(`/cn/researcher/invoices/pay/${invoice.number}`)).text();
    // Issue 21 defect 7: 'yes' beside card and PayPal alone could only be refused.
    expect(html).not.toContain(`class="fapiao-box`);
    expect(html).not.toContain('name="requireFapiao"');
  });

  it("is asked in the wizard (bank transfer); 'yes' with a card names the offered methods; 'yes' with a bank transfer stores the request", async () => {
    const onUs = await chineseOnUs();
    const form = await createOrderFormFor(portal.ctx, onUs, { services: ["standard-editing"], projectTitle: "Fapiao order" });
    const html = await (await onUs.client.get(STEP)).text();
    expect(html).toContain(`class="fapiao-box`);
    expect(html).toContain("您需要发票吗？");
    // The note names the methods this page offers that issue fapiao, and none it does not offer.
    expect(html).toContain(">银行转账付款可开具发票；此处仅显示这些支付方式。<");
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1];
    const base = { orderFormId: form.id, idempotencyKey: key, acceptTerms: "on" };
    const noAnswer = await onUs.client.post(STEP, { ...base, paymentMethodId: "6" });
    expect(noAnswer.status).toBe(400);
    expect(await noAnswer.text()).toContain("您必须选择一个选项");
    const fapiao = {
      requireFapiao: "on",
      "fapiao.type": "general",
      "fapiao.serviceType": "editing",
      "fapiao.organizationName": "深圳市腾讯计算机系统有限公司",
      "fapiao.taxpayerNumber": VALID,
    };
    const paypal = await onUs.client.post(STEP, { ...base, paymentMethodId: "6", ...fapiao });
    expect(paypal.status).toBe(400);
    const refused = await paypal.text();
    expect(refused).toContain("您选择的支付方式无法开具发票。请选择银行转账。");
    // Shown again with the method cleared: no method is checked.
    expect(refused).not.toMatch(/name="paymentMethodId"[^>]*checked=""/);
    const bank = await onUs.client.post(STEP, { ...base, paymentMethodId: "9", ...fapiao });
    expect(bank.status).toBe(303);
    const order = await portal.ctx.db
      .selectFrom("orders as o")
      .innerJoin("invoices as i", "i.order_id", "o.id")
      .select("i.number")
      .where("o.order_form_id", "=", form.id)
      .executeTakeFirstOrThrow();
    const rows = await portal.ctx.db
      .selectFrom("fapiaos")
      .select(["invoice_number", "status", "origin", "title"])
      .where("user_id", "=", onUs.id)
      .execute();
    expect(rows).toEqual([{ invoice_number: order.number, status: "requested", origin: "order", title: "深圳市腾讯计算机系统有限公司" }]);
  });

  it("is never asked of an American researcher", async () => {
    const american = await portal.researcher();
    await createOrderFormFor(portal.ctx, american, { services: ["standard-editing"], projectTitle: "No fapiao" });
    expect(await (await american.client.get("/en/researcher/submit/payment-details")).text()).not.toContain(`class="fapiao-box`);
  });
});
