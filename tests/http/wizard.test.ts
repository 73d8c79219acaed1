import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";
import { createResearcher } from "../helpers/factories";
import { US_REGISTRATION_FIELDS } from "../helpers/api";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const TEXT = "Cells respond to mechanical stress through a network of signalling proteins. ".repeat(40);

async function upload(c: Client, path: string, fields: Record<string, string>, file?: { field: string; name: string; data: Buffer }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append(file.field, new Blob([new Uint8Array(file.data)]), file.name);
  return c.request(path, { method: "POST", body: fd });
}

describe("order wizard without JavaScript", () => {
  it("walks from upload to a placed bank-transfer order, once", async () => {
    const c = new Client(portal.url);
    let r = await c.get("/en/researcher/submit/new");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/get-started");
    expect(c.cookies.has("draft")).toBe(true);

    // A later step is not open yet.
    r = await c.get("/en/researcher/submit/details");
    expect(r.headers.get("location")).toBe("/en/researcher/submit/get-started");

    // Get started: validation, then a real .docx with the word count and language.
    r = await upload(c, "/en/researcher/submit/get-started", {
      intent: "next",
      customerGoal: "manuscript",
      wordCount: "0",
      languageId: "1",
    });
    expect(r.status).toBe(400);
    let html = await r.text();
    expect(html).toContain("Please upload your files");
    expect(html).toContain("Please enter a word count from 1 to 999,999.");
    const docx = await makeDocx(TEXT);
    r = await upload(
      c,
      "/en/researcher/submit/get-started",
      { intent: "next", customerGoal: "manuscript", wordCount: "4500", languageId: "1" },
      { field: "mainFiles", name: "paper.docx", data: docx },
    );
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/manuscript-services");

    // Services: Next without a choice is refused; a toggle selects and stays; Next goes on.
    // Each card's button is named for its service ("Select Standard Editing"), not a bare "Select".
    html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toMatch(/value="standard-editing"[^>]*>Select<span class="visually-hidden"> Standard Editing<\/span><\/button>/);
    r = await c.post("/en/researcher/submit/manuscript-services", { intent: "next" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please make a selection");
    r = await c.post("/en/researcher/submit/manuscript-services", { toggle: "standard-editing" });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/manuscript-services");
    html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toContain('aria-pressed="true"');
    expect(html).toMatch(/value="standard-editing"[^>]*>✓ Selected<span class="visually-hidden"> Standard Editing<\/span>/);
    expect(html).toMatch(/My Order[\s\S]*Standard Editing[\s\S]*\$260/);
    r = await c.post("/en/researcher/submit/manuscript-services", { intent: "next", services: "standard-editing" });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/additional-services");

    r = await c.post("/en/researcher/submit/additional-services", { intent: "next" });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/details");

    // Details: the messages of spec 1 §5, then valid answers.
    r = await upload(c, "/en/researcher/submit/details", { intent: "next", projectTitle: "" });
    expect(r.status).toBe(400);
    html = await r.text();
    expect(html).toContain("Please enter your project title.");
    expect(html).toContain("Please choose your area of study.");
    expect(html).toContain("Please select your preferred type of English.");
    // Issue 22 §6: the error summary at the top, focused on load, each problem linking to its field.
    const summary =
      /<div class="error-summary" role="alert"[^>]*autofocus=""[^>]*>([\s\S]*?)<\/ul><\/div>/.exec(html)?.[1]?.replaceAll("<!-- -->", "") ??
      "";
    expect(summary).toContain('<a href="#projectTitle">Project title: Please enter your project title.</a>');
    expect(summary).toContain('href="#areaOfStudyId"');
    expect(summary).toContain('href="#styleOfEnglish-american"');
    expect(html).toContain('id="styleOfEnglish-american"');
    const area = await portal.ctx.db
      .selectFrom("areas_of_study")
      .select("id")
      .where("level", "=", 3)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    r = await upload(c, "/en/researcher/submit/details", {
      intent: "next",
      projectTitle: "Mechanosensing in cells",
      areaOfStudyId: String(area.id),
      styleOfEnglish: "american",
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/payment-details");

    // Paying needs an account; signing in claims the anonymous draft and its files.
    r = await c.get("/en/researcher/submit/payment-details");
    expect(r.headers.get("location")).toBe("/en/login?redirect=%2Fen%2Fresearcher%2Fsubmit%2Fpayment-details");
    const researcher = await createResearcher(portal.ctx);
    r = await c.post("/en/login", {
      email: researcher.email,
      password: researcher.password,
      redirect: "/en/researcher/submit/payment-details",
    });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/payment-details");
    html = await (await c.get("/en/researcher/submit/payment-details")).text();
    expect(html).toContain("Bank transfer");
    r = await c.post("/en/researcher/submit/payment-details", { paymentMethodId: "9" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please accept the terms of service to place your order.");
    r = await c.post("/en/researcher/submit/payment-details", { paymentMethodId: "9", acceptTerms: "on", purchaseOrder: "PO-42" });
    expect(r.status).toBe(303);
    const thankYou = r.headers.get("location")!;
    expect(thankYou).toMatch(/^\/en\/researcher\/index\/details\/RS\d+\/thank-you$/);
    const externalId = thankYou.split("/")[5];

    // A second submit creates no second order.
    await c.post("/en/researcher/submit/payment-details", { paymentMethodId: "9", acceptTerms: "on" });
    const orders = await portal.ctx.db.selectFrom("orders").select(["external_id", "total", "purchase_order"]).execute();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ external_id: externalId, purchase_order: "PO-42" });
    expect(Number(orders[0].total)).toBe(26000);
    const invoice = await portal.ctx.db.selectFrom("invoices").selectAll().executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ status: "unpaid" });
    expect(Number(invoice.balance)).toBe(26000);

    html = await (await c.get(thankYou)).text();
    expect(html).toContain("Thank you for your order");
    expect(html).toContain(externalId);
    expect(html).toContain(invoice.number);

    // Another user never reaches it.
    const { client: other } = await portal.staff();
    expect((await other.get(thankYou)).status).toBe(404);
  });

  it("keeps another visitor's draft apart", async () => {
    const a = new Client(portal.url);
    await a.get("/en/researcher/submit/new");
    const b = new Client(portal.url);
    await b.get("/en/researcher/submit/new");
    const forms = await portal.ctx.db.selectFrom("order_forms").select(["id", "draft_key_hash"]).where("user_id", "is", null).execute();
    expect(new Set(forms.map((f) => f.draft_key_hash)).size).toBe(forms.length);
    // b's selection does not change a's summary.
    await b.post("/en/researcher/submit/get-started", {
      intent: "next",
      customerGoal: "manuscript",
      uploadFilesLater: "on",
      wordCount: "1000",
      languageId: "1",
    });
    const html = await (await a.get("/en/researcher/submit/get-started")).text();
    expect(html).toContain("Choose a service to see your price");
  });
});

/** The hidden fields of the /new?promo= confirmation's form, as the browser posts them. */
function confirmedPromo(html: string): Record<string, string> {
  const form =
    /<form[^>]*action="\/en\/researcher\/submit\/promo"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1]?.replaceAll("<!-- -->", "") ?? "";
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, "&")]),
  );
}

describe("marketing banners", () => {
  it("greet cambridge1 visitors on two steps only and apply a promo code from the link", async () => {
    const c = new Client(portal.url);
    const r = await c.get("/en/researcher/submit/new?rs=cambridge1&promo=WELCOME10");
    expect(c.cookies.get("rs")).toBe("cambridge1");
    // The link's code is applied by the confirmation's POST (issue 10 §10).
    const applied = await c.post("/en/researcher/submit/promo", confirmedPromo(await r.text()));
    let html = await (await c.get(applied.headers.get("location")!.split("?")[0])).text();
    expect(html).toContain('role="status">Welcome, Cambridge researchers!');
    await c.post("/en/researcher/submit/get-started", {
      intent: "next",
      customerGoal: "manuscript",
      uploadFilesLater: "on",
      wordCount: "1000",
      languageId: "1",
    });
    html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toContain('role="status">Welcome, Cambridge researchers!');
    await c.post("/en/researcher/submit/manuscript-services", { toggle: "standard-editing" });
    await c.post("/en/researcher/submit/manuscript-services", { intent: "next", services: "standard-editing" });
    html = await (await c.get("/en/researcher/submit/additional-services")).text();
    expect(html).not.toContain('class="banner marketing-banner"');
    expect(html).toContain("Promo code WELCOME10");
    // Another partner code gets no welcome; a promo code alone gets the promo greeting.
    const d = new Client(portal.url);
    const r2 = await d.get("/en/researcher/submit/new?rs=othercorp&promo=WELCOME10");
    const applied2 = await d.post("/en/researcher/submit/promo", confirmedPromo(await r2.text()));
    html = await (await d.get(applied2.headers.get("location")!.split("?")[0])).text();
    expect(html).not.toContain('role="status">Welcome, Cambridge researchers!');
    expect(html).toContain('class="banner marketing-banner" role="status">Your promo code WELCOME10 is ready for this order.');
  });
});

describe("service bundles", () => {
  it("ask the questions, offer matching bundles with the discount, and take the chosen one", async () => {
    const c = new Client(portal.url);
    await c.get("/en/researcher/submit/new");
    await c.post("/en/researcher/submit/get-started", {
      intent: "next",
      customerGoal: "manuscript",
      uploadFilesLater: "on",
      wordCount: "2500",
      languageId: "1",
    });
    await c.post("/en/researcher/submit/manuscript-services", { toggle: "standard-editing" });
    await c.post("/en/researcher/submit/manuscript-services", { intent: "next", services: "standard-editing" });
    let r = await c.post("/en/researcher/submit/additional-services", { intent: "next", bundleInterest: "on" });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/service-bundles");
    // Question 1 needs one checkbox; a toggle that is on needs its count; tables need the journal.
    r = await c.post("/en/researcher/submit/service-bundles", { intent: "questions", tables: "on" });
    expect(r.status).toBe(400);
    let html = await r.text();
    expect(html).toContain("Please select at least one option.");
    expect(html).toContain("Please enter the number of tables.");
    expect(html).toContain("Please choose your target journal so we can format your tables to its style.");
    r = await c.post("/en/researcher/submit/service-bundles", {
      intent: "questions",
      goals: "polish-figures",
      figures: "on",
      "figures.count": "3",
    });
    expect(r.status).toBe(303);
    html = await (await c.get("/en/researcher/submit/service-bundles")).text();
    expect(html).toContain("Figure Ready");
    expect(html).toContain("You save");
    const id = /name="bundleId" value="(\d+)"/.exec(html)![1];
    r = await c.post("/en/researcher/submit/service-bundles", { intent: "choose", bundleId: id, [`delivery.${id}`]: "standard" });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/details");
    const form = await portal.ctx.db
      .selectFrom("order_forms")
      .select(["bundle_id", "selections"])
      .where("bundle_id", "=", Number(id))
      .executeTakeFirstOrThrow();
    expect((form.selections as { serviceSlug: string; quantity?: number }[]).map((s) => [s.serviceSlug, s.quantity])).toEqual([
      ["standard-editing", undefined],
      ["figure-formatting", 3],
    ]);
    html = await (await c.get("/en/researcher/submit/details")).text();
    expect(html).toMatch(/My Order[\s\S]*Figure Formatting(<!-- -->)? × 3[\s\S]*Service bundle discount/);
  });
});

describe("claiming anonymous work", () => {
  it("gives the draft and its files to the user who registers", async () => {
    const c = new Client(portal.url);
    await c.get("/en/researcher/submit/new");
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("mainFiles", new Blob([new Uint8Array(await makeDocx(TEXT))]), "anon.docx");
    await c.request("/en/researcher/submit/get-started", { method: "POST", body: fd });
    const draft = await portal.ctx.db
      .selectFrom("order_forms")
      .select(["id"])
      .where("user_id", "is", null)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const r = await c.post("/en/register", {
      intent: "register",
      email: "claimer@example.org",
      password: "claimer-pass-1",
      firstName: "C",
      lastName: "L",
      ...US_REGISTRATION_FIELDS,
    });
    expect(r.status).toBe(303);
    const user = await portal.ctx.db.selectFrom("users").select("id").where("email", "=", "claimer@example.org").executeTakeFirstOrThrow();
    const form = await portal.ctx.db.selectFrom("order_forms").select(["user_id"]).where("id", "=", draft.id).executeTakeFirstOrThrow();
    expect(form.user_id).toBe(user.id);
    const files = await portal.ctx.db
      .selectFrom("files")
      .select(["owner_user_id", "original_name"])
      .where("order_form_id", "=", draft.id)
      .execute();
    expect(files).toEqual([{ owner_user_id: user.id, original_name: "anon.docx" }]);
    // The signed-in user continues the same order.
    expect(await (await c.get("/en/researcher/submit/get-started")).text()).toContain("anon.docx");
  });
});

describe("upload_files_ui", () => {
  it("switches get-started to the drop-zone upload UI", async () => {
    const c = new Client(portal.url);
    await c.get("/en/researcher/submit/new");
    expect(await (await c.get("/en/researcher/submit/get-started")).text()).not.toContain('class="drop-zone"');
    await portal.ctx.config.setFlag("upload_files_ui", true);
    const html = await (await c.get("/en/researcher/submit/get-started")).text();
    expect(html).toContain('class="drop-zone"');
    expect(html).toContain("Drag and drop your files here, or click to choose them");
    await portal.ctx.config.setFlag("upload_files_ui", false);
  });
});
