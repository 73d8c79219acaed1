// The researcher dashboard over HTTP, without JavaScript (issue 11 §3, spec 2 §2): the page, the filter as a
// GET or a POST answered with a 303 to the underscore path, pages of 30, bad dates as translated 400s, only the
// user's own orders, the country modal, the unpaid-invoice banner, and GET /api/order/search.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { createInvoice, createPlacedOrder, createStaff } from "../helpers/factories";
import { invalidateUser } from "../../server/accounts/account";
import { transitionOrder } from "../../server/orders/life";
import { addDeliverable } from "../../server/orders/deliverables";
import { issueCertificate } from "../../server/certificates";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const html = async (c: Client, path: string) => {
  const r = await c.get(path);
  return { status: r.status, text: await r.text(), location: r.headers.get("location") };
};

async function orderId(externalId: string) {
  return (await portal.ctx.db.selectFrom("orders").select("id").where("external_id", "=", externalId).executeTakeFirstOrThrow()).id;
}

/** Moves an order to completed with one delivered file, as staff would. */
async function complete(externalId: string) {
  const staff = await createStaff(portal.ctx);
  const actor = { userId: staff.id };
  const id = await orderId(externalId);
  expect((await transitionOrder(portal.ctx, actor, { orderId: id }, "start")).ok).toBe(true);
  const pdf = new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"));
  expect((await addDeliverable(portal.ctx, actor, id, pdf, "edited.pdf")).ok).toBe(true);
  expect((await transitionOrder(portal.ctx, actor, { orderId: id }, "complete")).ok).toBe(true);
  return { id, actor };
}

describe("the researcher dashboard", () => {
  let ada: SignedInUser;
  let soil: string;
  let glacier: string;

  beforeAll(async () => {
    ada = await portal.researcher();
    soil = (await createPlacedOrder(portal.ctx, ada, { projectTitle: "Soil bacteria under drought" })).externalId;
    glacier = (await createPlacedOrder(portal.ctx, ada, { projectTitle: "Retreating glaciers" })).externalId;
    await portal.ctx.db
      .updateTable("orders")
      .set({ created_at: new Date("2026-03-10T12:00:00Z") })
      .where("external_id", "=", soil)
      .execute();
  });

  it("sends a visitor to sign in first", async () => {
    for (const path of ["/en/researcher", "/en/researcher/index/orders/_/soil/_/_/1"]) {
      const r = await new Client(portal.url).get(path);
      expect(r.status).toBe(302);
      expect(r.headers.get("location")).toBe(`/en/login?redirect=${encodeURIComponent(path)}`);
    }
  });

  it("reads the researcher's row once for all its widgets (referral link, balance, rewards, group: ADR 086)", async () => {
    const { client } = await portal.researcher();
    expect((await client.get("/en/researcher")).status).toBe(200); // warm: the cached user view, the catalogue
    // The page's loaders run in the server build, on the portal's own database object: its reads are counted here.
    const spy = vi.spyOn(portal.ctx.db, "selectFrom");
    try {
      const r = await client.get("/en/researcher");
      expect(r.status).toBe(200);
      await r.text();
      const fromUsers = spy.mock.calls.filter(([from]) => /^users( |$)/.test(String(from)));
      expect(fromUsers).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("shows an empty state, and no search form, to a researcher without orders", async () => {
    const { client } = await portal.researcher();
    const page = await html(client, "/en/researcher");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>Researcher home");
    expect(page.text).toContain("My Orders");
    expect(page.text).toContain("You have not submitted any manuscripts");
    expect(page.text).toContain('href="/en/researcher/submit/new"');
    expect(page.text).not.toContain('name="orderTitle"');
    expect(page.text).not.toContain("unpaid-banner");
  });

  it("lists the user's orders as panels, and never another researcher's", async () => {
    const other = await portal.researcher();
    const theirs = (await createPlacedOrder(portal.ctx, other, { projectTitle: "Someone else's secret" })).externalId;
    const page = await html(ada.client, "/en/researcher");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Soil bacteria under drought");
    expect(page.text).toContain("Retreating glaciers");
    expect(page.text).toContain(`data-order="${soil}"`);
    expect(page.text).toContain("Standard Editing");
    expect(page.text).toContain(`href="/en/researcher/index/details/${soil}"`);
    expect(page.text).toContain(`href="/en/support/index/submission/${soil}"`);
    // A placed bank-transfer order: awaiting payment, no files, no certificate, no re-edit.
    expect(page.text).toContain("Awaiting payment");
    expect(page.text).not.toContain("deliverables.zip");
    expect(page.text).not.toContain("#certificate");
    expect(page.text).not.toContain(theirs);
    expect(page.text).not.toContain("Someone else");
    // Nor through the filter or the API.
    expect((await html(ada.client, `/en/researcher/index/orders/${theirs}/_/_/_/1`)).text).not.toContain("Someone else");
    const api = await (await ada.client.get(`/api/order/search?xid=${theirs}`)).json();
    expect(api.orders).toEqual([]);
  });

  it("turns a filter sent as a GET or a POST into the path form (303), page 1, and filters by title", async () => {
    let r = await ada.client.get("/en/researcher?xid=&orderTitle=soil&from=&to=");
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/index/orders/_/soil/_/_/1");
    r = await ada.client.post("/en/researcher/index/orders/_/_/_/_/3", { xid: "", orderTitle: "soil", from: "03/01/2026", to: "" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/index/orders/_/soil/03%2F01%2F2026/_/1");
    const page = await html(ada.client, r.headers.get("location")!);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Soil bacteria under drought");
    expect(page.text).not.toContain("Retreating glaciers");
    // The form is refilled with the filter.
    expect(page.text).toContain('value="soil"');
    expect(page.text).toContain('value="03/01/2026"');
    // Dates: the soil order was created on 10 March 2026 (US clock).
    expect((await html(ada.client, "/en/researcher/index/orders/_/_/03%2F10%2F2026/03%2F10%2F2026/1")).text).toContain("Soil bacteria");
    const later = await html(ada.client, "/en/researcher/index/orders/_/_/03%2F11%2F2026/_/1");
    expect(later.text).not.toContain("Soil bacteria");
    expect(later.text).toContain("Retreating glaciers");
    // By order number; no match is said so, with the form still there.
    expect((await html(ada.client, `/en/researcher/index/orders/${glacier}/_/_/_/1`)).text).not.toContain("Soil bacteria");
    const none = await html(ada.client, "/en/researcher/index/orders/_/nothing-like-this/_/_/1");
    expect(none.text).toContain("No orders match your search.");
    expect(none.text).toContain('name="orderTitle"');
    // Clear.
    r = await ada.client.post("/en/researcher/index/orders/_/soil/_/_/1", { intent: "clear" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher");
  });

  it("answers a bad date with a translated field error and a 400, never a 500", async () => {
    let page = await html(ada.client, "/en/researcher?from=13/45/2026");
    expect(page.status).toBe(400);
    expect(page.text).toContain("Enter a date as MM/dd/yyyy");
    expect(page.text).toContain('value="13/45/2026"');
    // No list under a filter that could not be read.
    expect(page.text).not.toContain("data-order=");
    page = await html(ada.client, "/en/researcher/index/orders/_/_/02%2F30%2F2026/_/1");
    expect(page.status).toBe(400);
    expect(page.text).toContain("Enter a date as MM/dd/yyyy");
    page = await html(ada.client, "/cn/researcher/index/orders/_/_/yesterday/_/1");
    expect(page.status).toBe(400);
    expect(page.text).toContain("请按 MM/dd/yyyy 格式输入日期");
    page = await html(ada.client, "/en/researcher/index/orders/_/_/03%2F11%2F2026/03%2F01%2F2026/1");
    expect(page.status).toBe(400);
    expect(page.text).toContain("The to date cannot be before the from date.");
    page = await html(ada.client, "/en/researcher/index/orders/_/_/_/_/0");
    expect(page.status).toBe(400);
    const r = await ada.client.post("/en/researcher", { orderTitle: "soil", from: "2026-03-01" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Enter a date as MM/dd/yyyy");
  });

  it("answers GET /api/order/search with the page's list, flags and certificates, and refuses bad input with codes", async () => {
    let r = await ada.client.get("/api/order/search?orderTitle=soil");
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.pagination).toEqual({ page: 1, pageSize: 30, total: 1, pages: 1 });
    expect(body.orders).toHaveLength(1);
    expect(body.orders[0]).toMatchObject({ externalId: soil, title: "Soil bacteria under drought", certificate: null });
    expect(body.orders[0].flags).toMatchObject({ displayStatus: "awaiting-payment", downloadAvailable: false });
    expect(body.orders[0]).not.toHaveProperty("id");
    r = await ada.client.get("/api/order/search?from=13/45/2026");
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: "date-invalid", fieldErrors: { from: "date-invalid" } });
    r = await ada.client.get("/api/order/search?from=03/11/2026&to=03/01/2026");
    expect((await r.json()).fieldErrors).toEqual({ to: "date-range-invalid" });
    r = await ada.client.get("/api/order/search?page=0");
    expect((await r.json()).fieldErrors).toEqual({ page: "page-invalid" });
    r = await ada.client.get("/api/order/search?page=abc");
    expect(r.status).toBe(400);
    r = await ada.client.get(`/api/order/search?xid=${"X".repeat(41)}`);
    expect((await r.json()).fieldErrors).toEqual({ xid: "xid-too-long" });
    r = await ada.client.get("/api/order/search?from=03/10/2026&to=03/10/2026");
    expect((await r.json()).orders.map((o: { externalId: string }) => o.externalId)).toEqual([soil]);
    expect((await new Client(portal.url).get("/api/order/search")).status).toBe(401);
  });

  it("offers files, the certificate and a re-edit only when the order has them; a completed unpaid order awaits payment", async () => {
    const { id, actor } = await complete(soil);
    let page = await html(ada.client, "/en/researcher");
    // Completed, invoice open: awaiting payment, files held back.
    expect(page.text).toContain("Your files will be available once payment is received.");
    expect(page.text).not.toContain(`/api/order/${soil}/deliverables.zip`);
    await portal.ctx.db.updateTable("orders").set({ paid: true }).where("id", "=", id).execute();
    expect((await issueCertificate(portal.ctx, actor, id)).ok).toBe(true);
    page = await html(ada.client, "/en/researcher");
    expect(page.text).toContain(`href="/api/order/${soil}/deliverables.zip"`);
    expect(page.text).toContain("Download all files");
    // The link leads to the owner's zip (issue 11 §5's endpoint).
    const zip = await ada.client.get(`/api/order/${soil}/deliverables.zip`);
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    expect(page.text).toContain(`href="/en/researcher/index/details/${soil}#certificate"`);
    expect(page.text).toContain(`href="/en/researcher/index/re-edit/${soil}"`);
    const api = await (await ada.client.get(`/api/order/search?xid=${soil}`)).json();
    expect(api.orders[0].certificate).toMatchObject({ title: expect.any(String), code: expect.any(String) });
    expect(api.orders[0].flags).toMatchObject({ certificateReady: true, downloadAvailable: true, reeditAvailable: true });
  });

  it("pages the list 30 at a time with links that keep the filter", async () => {
    const bob = await portal.researcher();
    for (let i = 0; i < 31; i++) await createPlacedOrder(portal.ctx, bob, { projectTitle: `Paged order ${i}` });
    const one = await html(bob.client, "/en/researcher");
    expect(one.text.match(/data-order="/g)).toHaveLength(30);
    expect(one.text).toContain("Page 1 of 2 (31 orders)");
    expect(one.text).toContain('href="/en/researcher/index/orders/_/_/_/_/2"');
    const two = await html(bob.client, "/en/researcher/index/orders/_/_/_/_/2");
    expect(two.status).toBe(200);
    expect(two.text.match(/data-order="/g)).toHaveLength(1);
    expect(two.text).toContain('href="/en/researcher/index/orders/_/_/_/_/1"');
    const filtered = await html(bob.client, "/en/researcher/index/orders/_/Paged/_/_/1");
    expect(filtered.text).toContain('href="/en/researcher/index/orders/_/Paged/_/_/2"');
  });

  it("asks a user without a country for it in a modal that posts without JavaScript", async () => {
    const zoe = await portal.researcher();
    await portal.ctx.db.updateTable("users").set({ country_id: null }).where("id", "=", zoe.id).execute();
    await invalidateUser(portal.ctx, zoe.id);
    let page = await html(zoe.client, "/en/researcher");
    expect(page.text).toContain("<dialog open");
    expect(page.text).toContain("Please choose your country");
    // One question, not two: the layout's card stays away on this page.
    expect(page.text.match(/country-prompt/g)).toHaveLength(1);
    let r = await zoe.client.post("/en/researcher", { intent: "country", country: "" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("country is required and can&#x27;t be empty");
    r = await zoe.client.post("/en/researcher/index/orders/_/_/_/_/1", { intent: "country", country: "PT" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/index/orders/_/_/_/_/1");
    page = await html(zoe.client, "/en/researcher");
    expect(page.text).not.toContain("<dialog open");
  });

  it("shows the unpaid-invoice banner: each invoice while there are 10 or fewer, a count past that", async () => {
    const payer = await portal.researcher();
    const numbers: string[] = [];
    for (let i = 0; i < 10; i++) numbers.push((await createInvoice(portal.ctx, payer)).invoice.number);
    let page = await html(payer.client, "/en/researcher");
    expect(page.text).toContain("You have unpaid invoices");
    expect(page.text).toContain("Unpaid invoices: 10.");
    expect(page.text).toContain('href="/en/researcher/invoices/unpaid"');
    expect(page.text).toContain("Pay Now");
    expect(page.text).toContain('class="unpaid-invoices"');
    for (const n of numbers) expect(page.text).toContain(`<td>${n}</td>`);
    // A paid invoice is not counted.
    await portal.ctx.db.updateTable("invoices").set({ status: "paid", balance: 0 }).where("number", "=", numbers[0]).execute();
    page = await html(payer.client, "/en/researcher");
    expect(page.text).toContain("Unpaid invoices: 9.");
    expect(page.text).not.toContain(`<td>${numbers[0]}</td>`);
    await createInvoice(portal.ctx, payer);
    await createInvoice(portal.ctx, payer);
    page = await html(payer.client, "/en/researcher");
    expect(page.text).toContain("Unpaid invoices: 11.");
    expect(page.text).not.toContain('class="unpaid-invoices"');
    // Another researcher sees none of them.
    const { client } = await portal.researcher();
    expect((await html(client, "/en/researcher")).text).not.toContain("unpaid-banner");
  });

  it("shows the referral link and the unfinished order form alert", async () => {
    const page = await html(ada.client, "/en/researcher");
    const code = (await portal.ctx.db.selectFrom("users").select("referral_code").where("id", "=", ada.id).executeTakeFirstOrThrow())
      .referral_code;
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{12}$/);
    expect(page.text).toContain(`/register?referralCode=${code}"`);
    expect(page.text).toContain('href="/en/referral-rewards"');
    expect(page.text).not.toContain("unfinished-alert");
    // Opening the wizard makes an empty draft: no alert. Choosing a service does.
    await ada.client.get("/en/researcher/submit/new");
    expect((await html(ada.client, "/en/researcher")).text).not.toContain("unfinished-alert");
    const form = await portal.ctx.db
      .selectFrom("order_forms")
      .select("id")
      .where("user_id", "=", ada.id)
      .where("status", "=", "draft")
      .executeTakeFirstOrThrow();
    await portal.ctx.db
      .updateTable("order_forms")
      .set({ selections: JSON.stringify([{ serviceSlug: "standard-editing" }]) })
      .where("id", "=", form.id)
      .execute();
    const after = await html(ada.client, "/en/researcher");
    expect(after.text).toContain("unfinished-alert");
    expect(after.text).toContain('href="/en/researcher/submit/resume"');
  });
});
