// The staff operations console over HTTP without JavaScript (issue 11 §2): every page and form (POST → 303 →
// GET), staff only (a researcher gets 403 on every URL and POST, a visitor is sent to sign in), cross-site POSTs
// refused, bad input answered 4xx with a translated message (never 500), refused file types.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createPlacedOrder, createResearcher } from "../helpers/factories";
import { makeDocx, makePdf } from "../helpers/fixtures";
import { checkUploadRateLimit } from "#server/documents/storage";

let portal: TestPortal;
let staff: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  staff = await portal.staff();
});
afterAll(async () => portal.stop());

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const today = () => new Date().toISOString().slice(0, 10);

async function upload(c: Client, path: string, files: { name: string; type: string; body: Buffer }[]) {
  const fd = new FormData();
  fd.append("intent", "upload");
  for (const f of files) fd.append("files", new Blob([new Uint8Array(f.body)], { type: f.type }), f.name);
  return c.request(path, { method: "POST", body: fd });
}

async function expect303(r: Response, to: RegExp) {
  expect(r.status, await r.clone().text()).toBe(303);
  expect(r.headers.get("location")).toMatch(to);
}

describe("staff console access", () => {
  it("answers a researcher 403 and sends a visitor to sign in, on every URL and POST", async () => {
    const { client: researcher, ...user } = await portal.researcher();
    const placed = await createPlacedOrder(portal.ctx, user);
    const visitor = new Client(portal.url);
    const pages = ["/en/staff/orders", "/en/staff/orders?status=placed", "/en/staff/orders/new", `/en/staff/orders/${placed.externalId}`];
    for (const page of pages) {
      expect((await researcher.get(page)).status, page).toBe(403);
      const r = await visitor.get(page);
      expect([302, 303], page).toContain(r.status);
      expect(r.headers.get("location"), page).toMatch(/^\/en\/login\?redirect=/);
    }
    const posts: [string, Record<string, string>][] = [
      [`/en/staff/orders/${placed.externalId}`, { intent: "transition", event: "start" }],
      [`/en/staff/orders/${placed.externalId}`, { intent: "payment", amount: "1", reference: "R", receivedOn: today() }],
      [`/en/staff/orders/${placed.externalId}`, { intent: "override", value: "on" }],
      [`/en/staff/orders/${placed.externalId}`, { intent: "certificate" }],
      [`/en/staff/orders/${placed.externalId}`, { intent: "remove-deliverable", key: "abc" }],
      ["/en/staff/orders/new", { email: user.email, suppressInvoiceCreation: "yes" }],
    ];
    for (const [path, form] of posts) {
      expect((await researcher.post(path, form)).status, `${path} ${form.intent}`).toBe(403);
      const r = await visitor.post(path, form);
      expect([302, 303]).toContain(r.status);
      expect(r.headers.get("location")).toMatch(/^\/en\/login/);
    }
    const pdf = await makePdf("Edited manuscript");
    expect(
      (await upload(researcher, `/en/staff/orders/${placed.externalId}`, [{ name: "x.pdf", type: "application/pdf", body: pdf }])).status,
    ).toBe(403);
    const row = await portal.ctx.db
      .selectFrom("orders")
      .select(["status", "override_download_available"])
      .where("external_id", "=", placed.externalId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "placed", override_download_available: false });
    expect(await portal.ctx.db.selectFrom("deliverables").select("id").execute()).toEqual([]);
  });

  it("refuses a cross-site POST", async () => {
    const user = await createResearcher(portal.ctx);
    const placed = await createPlacedOrder(portal.ctx, user);
    const r = await staff.client.request(`/en/staff/orders/${placed.externalId}`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "intent=transition&event=start",
    });
    expect(r.status).toBe(403);
    const row = await portal.ctx.db
      .selectFrom("orders")
      .select("status")
      .where("external_id", "=", placed.externalId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("placed");
  });
});

describe("the console without JavaScript", () => {
  it("finds an order, starts it, delivers files, completes it, records the payment and issues the certificate", async () => {
    const user = await createResearcher(portal.ctx, { firstName: "Grace" });
    const placed = await createPlacedOrder(portal.ctx, user, { projectTitle: "Ocean acidification and shellfish" });
    const c = staff.client;
    const page = `/en/staff/orders/${placed.externalId}`;

    let r = await c.get(`/en/staff/orders?email=${encodeURIComponent(user.email)}`);
    expect(r.status).toBe(200);
    let html = await r.text();
    expect(html).toContain(`href="${page}"`);
    expect(html).toContain("Ocean acidification and shellfish");
    r = await c.get(`/en/staff/orders?from=yesterday`);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please enter a valid date.");
    expect((await c.get(`/en/staff/orders?status=lost`)).status).toBe(400);
    expect((await c.get(`/en/staff/orders/RS0`)).status).toBe(404);

    html = await (await c.get(page)).text();
    expect(html).toContain(user.email);
    expect(html).toContain("Start work");
    expect(html).toContain(placed.invoiceNumber!);

    await expect303(await c.post(page, { intent: "transition", event: "start", note: "Assigned to editor 7" }), /\?done=transition$/);
    html = await (await c.get(`${page}?done=transition`)).text();
    expect(html).toContain("The order status has been changed.");
    expect(html).toContain("Assigned to editor 7");
    expect(html).toContain("Work started");

    // Completing without files, and an event the state does not allow: 4xx with the reason (409 once the
    // status table lists these codes; #common/result answers 400 for a code it does not list).
    r = await c.post(page, { intent: "transition", event: "complete" });
    expect([400, 409]).toContain(r.status);
    expect(await r.text()).toContain("Upload at least one completed file first.");
    r = await c.post(page, { intent: "transition", event: "reopen" });
    expect([400, 409]).toContain(r.status);
    expect(await r.text()).toContain("cannot make that change");
    expect((await c.post(page, { intent: "transition", event: "teleport" })).status).toBe(400);
    // An intent no form of the page has (a stale or altered page): a 400 that says so in the user's language,
    // not a page without a word (issue 21 §6: one intent dispatcher).
    r = await c.post(page, { intent: "nonsense" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("This form could not be read. Please reload the page and try again.");
    r = await c.post(page.replace("/en/", "/cn/"), { intent: "nonsense" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("无法读取此表单。请重新加载页面后重试。");

    // A file type the store refuses, then two good files.
    r = await upload(c, page, [{ name: "setup.exe", type: "application/octet-stream", body: Buffer.from("MZ\x90\x00binary") }]);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("This type of file cannot be uploaded");
    const docx = await makeDocx("Ocean acidification harms shellfish larvae. ".repeat(30));
    const pdf = await makePdf("Edited manuscript, clean copy");
    await expect303(
      await upload(c, page, [
        { name: "edited.docx", type: DOCX, body: docx },
        { name: "clean.pdf", type: "application/pdf", body: pdf },
      ]),
      /\?done=upload$/,
    );
    html = await (await c.get(page)).text();
    expect(html).toContain("edited.docx");
    expect(html).toContain("clean.pdf");
    const files = await portal.ctx.db
      .selectFrom("deliverables")
      .select(["key", "name"])
      .where("removed_at", "is", null)
      .orderBy("id")
      .execute();
    const ours = files.filter((f) => ["edited.docx", "clean.pdf", "setup.exe"].includes(f.name));
    expect(ours.map((f) => f.name)).toEqual(["edited.docx", "clean.pdf"]);
    // Withdraw and re-deliver one: the remove form.
    await expect303(await c.post(page, { intent: "remove-deliverable", key: ours[1].key }), /done=remove-deliverable/);
    expect((await c.post(page, { intent: "remove-deliverable", key: ours[1].key })).status).toBe(404);
    await expect303(await upload(c, page, [{ name: "clean.pdf", type: "application/pdf", body: pdf }]), /done=upload/);

    await expect303(await c.post(page, { intent: "transition", event: "complete" }), /done=transition/);

    // Payments: bad input and an overpayment are 400 with the reason; a good one pays, a repeat credits nothing.
    r = await c.post(page, { intent: "payment", amount: "lots", reference: "", receivedOn: "2026-13-01" });
    expect(r.status).toBe(400);
    html = await r.text();
    expect(html).toContain("Please enter the bank reference");
    expect(html).toContain("Please enter a valid date.");
    const invoice = await portal.ctx.db
      .selectFrom("invoices")
      .selectAll()
      .where("number", "=", placed.invoiceNumber!)
      .executeTakeFirstOrThrow();
    const total = Number(invoice.amount);
    r = await c.post(page, { intent: "payment", amount: ((total + 1) / 100).toFixed(2), reference: "WIRE-1", receivedOn: today() });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("The amount is larger than the invoice");
    const pay = { intent: "payment", amount: (total / 100).toFixed(2), reference: "WIRE-1", receivedOn: today() };
    await expect303(await c.post(page, pay), /done=payment$/);
    await expect303(await c.post(page, pay), /done=payment-duplicate$/);
    const paid = await portal.ctx.db
      .selectFrom("invoices")
      .select(["balance", "status"])
      .where("number", "=", invoice.number)
      .executeTakeFirstOrThrow();
    expect({ balance: Number(paid.balance), status: paid.status }).toEqual({ balance: 0, status: "paid" });
    // The order follows its invoice through billing's event (ADR 056), also when a page records the payment: the
    // page runs the Remix build's own copy of server/, the handlers were registered on the one the portal loads.
    const order = await portal.ctx.db
      .selectFrom("orders")
      .select(["id", "paid"])
      .where("external_id", "=", placed.externalId)
      .executeTakeFirstOrThrow();
    expect(order.paid).toBe(true);
    const recorded = await portal.ctx.db
      .selectFrom("order_history")
      .select("event")
      .where("order_id", "=", order.id)
      .where("event", "=", "payment-recorded")
      .execute();
    expect(recorded).toHaveLength(1);
    html = await (await c.get(page)).text();
    expect(html).toContain("WIRE-1");
    expect(html).toContain("Nothing is due");

    await expect303(await c.post(page, { intent: "certificate" }), /done=certificate/);
    html = await (await c.get(`${page}?done=certificate`)).text();
    const cert = await portal.ctx.db
      .selectFrom("certificates as c")
      .innerJoin("orders as o", "o.id", "c.order_id")
      .select("c.code")
      .where("o.external_id", "=", placed.externalId)
      .executeTakeFirstOrThrow();
    expect(html).toContain(cert.code.match(/.{4}/g)!.join("-"));

    await expect303(await c.post(page, { intent: "override", value: "on" }), /done=override/);
    html = await (await c.get(page)).text();
    expect(html).toContain("Hold the download until payment");
    expect(html).toContain("Download release changed");

    const audit = await portal.ctx.db.selectFrom("audit_log").select("action").where("target_id", "=", placed.externalId).execute();
    expect(new Set(audit.map((a) => a.action))).toEqual(
      new Set([
        "staff.order.view",
        "staff.order.start",
        "staff.order.deliverable-add",
        "staff.order.deliverable-remove",
        "staff.order.complete",
        "staff.order.certificate",
        "staff.order.download-override",
      ]),
    );
  });

  it("speaks the page's language, and views the portal as the order's researcher", async () => {
    const user = await createResearcher(portal.ctx);
    const placed = await createPlacedOrder(portal.ctx, user);
    const own = await portal.staff();
    let html = await (await own.client.get(`/jp/staff/orders/${placed.externalId}`)).text();
    expect(html).toContain(`注文 ${placed.externalId}`);
    expect(html).toContain("作業を開始");
    expect(html).not.toContain("Start work");
    html = await (await own.client.get("/cn/staff/orders")).text();
    expect(html).toContain("为研究人员创建订单");
    // "View as" posts the researcher's identity to the researchers tab's action.
    html = await (await own.client.get(`/en/staff/orders/${placed.externalId}`)).text();
    expect(html).toContain('action="/en/staff?index"');
    expect(html).toContain(`value="${user.identity}"`);
    const r = await own.client.post("/en/staff?index", { identity: user.identity });
    expect([302, 303]).toContain(r.status);
    expect((await (await own.client.get("/api/account")).json()).user.email).toBe(user.email);
  });

  it("counts deliveries against the staff member's upload rate limit", async () => {
    const user = await createResearcher(portal.ctx);
    const placed = await createPlacedOrder(portal.ctx, user);
    const own = await portal.staff();
    for (let i = 0; i < 30; i++) await checkUploadRateLimit(portal.ctx, { userId: own.id, ip: "127.0.0.1" });
    const r = await upload(own.client, `/en/staff/orders/${placed.externalId}`, [
      { name: "late.pdf", type: "application/pdf", body: await makePdf("Too many") },
    ]);
    expect(r.status).toBe(429);
    expect(await r.text()).toContain("You have uploaded many files in a short time.");
  });

  it("creates an order for a researcher, requiring the invoice choice", async () => {
    const user = await createResearcher(portal.ctx);
    const c = staff.client;
    let r = await c.get(`/en/staff/orders/new?email=${encodeURIComponent(user.email)}`);
    expect(r.status).toBe(200);
    let html = await r.text();
    expect(html).toContain(user.email);
    expect(html).toContain("Notify the customer of the new order");
    const area = await portal.ctx.db.selectFrom("areas_of_study").select("id").orderBy("id").executeTakeFirstOrThrow();
    const fd = new URLSearchParams({
      email: user.email,
      projectTitle: "Staff-made order",
      wordCount: "1800",
      languageId: "1",
      areaOfStudyId: String(area.id),
      styleOfEnglish: "american",
      currencyIso: "USD",
    });
    fd.append("serviceSlugs", "standard-editing");
    const post = (body: URLSearchParams) =>
      c.request("/en/staff/orders/new", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    r = await post(fd);
    expect(r.status).toBe(400);
    html = await r.text();
    expect(html).toContain("Please choose whether an invoice is created.");
    expect(html).toContain("Staff-made order");
    fd.set("suppressInvoiceCreation", "yes");
    fd.set("wordCount", "many");
    r = await post(fd);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please enter the word count.");
    fd.set("wordCount", "1800");
    r = await post(fd);
    await expect303(r, /^\/en\/staff\/orders\/RS\d+\?done=created$/);
    const externalId = r.headers.get("location")!.match(/RS\d+/)![0];
    const order = await portal.ctx.db.selectFrom("orders").selectAll().where("external_id", "=", externalId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      user_id: user.id,
      admin_created: true,
      suppress_invoice_creation: true,
      require_customer_notification: false,
    });
    html = await (await c.get(`/en/staff/orders/${externalId}?done=created`)).text();
    expect(html).toContain("The order has been created.");
    expect(html).toContain("This order has no invoice to pay.");
  });
});
