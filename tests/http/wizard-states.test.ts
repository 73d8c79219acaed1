// Issue 22 item 5 (part): the order wizard's screens and states — single-rush preselection, the four descriptions
// no card opened, the figure and table reference files, the no-JS equivalent of 'network-request-error'. Each
// test failed before its change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { sendJson as send, uploadDocx } from "../helpers/api";
import { makeDocx } from "../helpers/fixtures";
import { createCompletedOrder, createPlacedOrder, createResearcher, createStaff } from "../helpers/factories";
import { requestOrderFapiao } from "../../server/fapiao";
import { issueCertificate } from "../../server/certificates";
import { renderPlainErrorPage, renderUnavailablePage } from "../../server/http/fallback-pages";

let portal: TestPortal;
beforeAll(async () => {
  // Standard editing is the rush-only service of this portal (config rushOnlyServices, by slug).
  portal = await startRelaxedPortal({ CONFIG_RUSH_ONLY_SERVICES: '["standard-editing"]' });
});
afterAll(async () => portal.stop());

async function startForm(c: Client, opts: { services?: string[]; languageId?: number } = {}) {
  const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
  await uploadDocx(c, id);
  const basic = await send(c, "PUT", `/api/order-form/${id}/basic-details`, {
    customerGoal: "manuscript",
    wordCount: 2000,
    language: opts.languageId ?? 1,
  });
  expect(basic.status).toBe(200);
  if (opts.services) {
    const r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: opts.services });
    expect(r.status).toBe(200);
  }
  return id;
}

async function load(c: Client, id: string) {
  return (await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm;
}

describe("single-rush preselection (spec 1 §4 'Service selection')", () => {
  it("choosing a rush-only service through the API preselects rush; another service keeps standard", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { services: ["standard-editing"] });
    expect((await load(c, id)).deliveryTier).toBe("rush");
    const c2 = new Client(portal.url);
    const other = await startForm(c2, { services: ["advanced-editing"] });
    expect((await load(c2, other)).deliveryTier).toBe("standard");
  });

  it("the page's toggle (no JavaScript) preselects rush, and standard chosen afterwards stays", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    let r = await c.post("/en/researcher/submit/manuscript-services", { toggle: "standard-editing" });
    expect(r.status).toBe(303);
    expect((await load(c, id)).deliveryTier).toBe("rush");
    const html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toMatch(/<button[^>]*name="tier"[^>]*value="standard"[^>]*aria-pressed="true"|aria-pressed="true"[^>]*>Rush/);
    // The researcher takes standard back: Next keeps it (only a newly chosen service is preselected).
    r = await c.post("/en/researcher/submit/manuscript-services", { tier: "standard" });
    expect(r.status).toBe(303);
    r = await c.post("/en/researcher/submit/manuscript-services", { intent: "next", services: "standard-editing" });
    expect(r.status).toBe(303);
    expect((await load(c, id)).deliveryTier).toBe("standard");
  });

  it("a service that is not rush-only is chosen with standard delivery", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    const r = await c.post("/en/researcher/submit/manuscript-services", { toggle: "advanced-editing" });
    expect(r.status).toBe(303);
    expect((await load(c, id)).deliveryTier).toBe("standard");
  });
});

describe("the four descriptions no card opened (spec 1 §3)", () => {
  it("editing certificate on editing cards, word count beside the word count, rush delivery beside the tiers", async () => {
    const c = new Client(portal.url);
    await startForm(c, { services: ["standard-editing"] });
    const html = await (await c.get("/br/researcher/submit/manuscript-services")).text();
    expect(html).toContain('href="/br/researcher/submit/manuscript-services?about=editing-certificate"');
    expect(html).toContain('href="/br/researcher/submit/manuscript-services?about=word-count"');
    expect(html).toContain('href="/br/researcher/submit/manuscript-services?about=rush-delivery"');
    for (const about of ["editing-certificate", "word-count", "rush-delivery", "digital-translation"]) {
      const page = await (await c.get(`/br/researcher/submit/manuscript-services?about=${about}`)).text();
      expect(page, about).toContain('role="dialog"');
      expect(page, about).not.toContain(`descriptions.${about}`);
    }
    const cert = await (await c.get("/br/researcher/submit/manuscript-services?about=editing-certificate")).text();
    expect(cert).toContain('<h2 id="about-title">Certificado de revisão</h2>');
    // An unknown description opens nothing.
    expect(await (await c.get("/br/researcher/submit/manuscript-services?about=nothing")).text()).not.toContain('role="dialog"');
  });

  it("digital translation on translation cards", async () => {
    const row = await portal.ctx.db
      .selectFrom("services")
      .select(["source_language_id"])
      .where("slug", "like", "standard-translation-%")
      .where("source_language_id", "is not", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const c = new Client(portal.url);
    await startForm(c, { languageId: row.source_language_id! });
    const html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toContain('href="/en/researcher/submit/manuscript-services?about=digital-translation"');
  });
});

describe("figure and table reference files (spec 1 §3 'Details form fields')", () => {
  it("upload through the details step, listed on the page and in the API's order form", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { services: ["advanced-editing"] });
    let page = await c.get("/en/researcher/submit/details");
    if (page.status !== 200) {
      await c.post(`/en/researcher/submit/additional-services`, { intent: "next" });
      page = await c.get("/en/researcher/submit/details");
    }
    const html = await page.text();
    expect(html).toContain('name="figureReferenceFiles"');
    expect(html).toContain('name="tableReferenceFiles"');
    const docx = await makeDocx("Figure 1 shows the growth curve of the strains under drought. ".repeat(10));
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("figureReferenceFiles", new Blob([new Uint8Array(docx)]), "figure-source.docx");
    fd.append("tableReferenceFiles", new Blob([new Uint8Array(docx)]), "table-source.docx");
    const r = await c.request("/en/researcher/submit/details", { method: "POST", body: fd });
    expect(r.status).toBe(200);
    const after = await (await c.get("/en/researcher/submit/details")).text();
    expect(after).toMatch(/figure-source\.docx(<!-- -->)? ?<span class="badge">Figure reference files<\/span>/);
    expect(after).toMatch(/table-source\.docx(<!-- -->)? ?<span class="badge">Table reference files<\/span>/);
    const form = await load(c, id);
    expect(form.referenceFiles.figures.map((f: { name: string }) => f.name)).toEqual(["figure-source.docx"]);
    expect(form.referenceFiles.tables.map((f: { name: string }) => f.name)).toEqual(["table-source.docx"]);
    expect(form.referenceFiles.main).toEqual([]);
  });

  it("a refused file type is refused for a reference field too", async () => {
    const c = new Client(portal.url);
    await startForm(c, { services: ["advanced-editing"] });
    await c.post(`/en/researcher/submit/additional-services`, { intent: "next" });
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("tableReferenceFiles", new Blob([new Uint8Array(Buffer.from("MZ\x90\x00 not a document"))]), "tool.exe");
    const r = await c.request("/en/researcher/submit/details", { method: "POST", body: fd });
    expect(r.status).toBe(400);
    expect(await (await c.get("/en/researcher/submit/details")).text()).not.toContain("tool.exe");
  });
});

describe("the thank-you view (spec 2 §2): the fapiao just requested and the certificate form", () => {
  it("shows the fapiao asked for while paying, in the page's language", async () => {
    const researcher = await createResearcher(portal.ctx);
    const user = await portal.signIn(researcher);
    const order = await createPlacedOrder(portal.ctx, researcher);
    await requestOrderFapiao(portal.ctx, researcher.id, order.invoiceNumber!, {
      type: "special",
      serviceType: "editing",
      organizationName: "北京大学",
      taxpayerNumber: "91110000MA01ABCDE1",
      contactEmail: null,
      contactPhone: "13800138000",
      shippingAddress: null,
    });
    const html = await (await user.get(`/cn/researcher/index/details/${order.externalId}/thank-you`)).text();
    expect(html).toContain('data-fapiao="requested"');
    expect(html).toContain("北京大学");
    expect(html).toContain("91110000MA01ABCDE1");
    expect(html).toContain('<p class="alert alert-success" role="status">您的增值税专用发票申请已提交');
    // Without a request there is no fapiao block.
    const other = await createPlacedOrder(portal.ctx, researcher);
    expect(await (await user.get(`/cn/researcher/index/details/${other.externalId}/thank-you`)).text()).not.toContain("data-fapiao");
  });

  it("says when the certificate comes before it exists, and shows its title and authors form once it does", async () => {
    const researcher = await createResearcher(portal.ctx);
    const user = await portal.signIn(researcher);
    const placed = await createPlacedOrder(portal.ctx, researcher);
    let html = await (await user.get(`/br/researcher/index/details/${placed.externalId}/thank-you`)).text();
    expect(html).toContain('data-certificate="pending"');
    expect(html).toMatch(/data-certificate="pending"><h2 id="certificate-heading">[^<]+<\/h2><p>Seu certificado de revisão aparecerá aqui/);
    const done = await createCompletedOrder(portal.ctx, researcher);
    const orderId = (
      await portal.ctx.db.selectFrom("orders").select("id").where("external_id", "=", done.externalId).executeTakeFirstOrThrow()
    ).id;
    const issued = await issueCertificate(portal.ctx, { userId: (await createStaff(portal.ctx)).id }, orderId);
    if (!issued.ok) throw new Error(issued.error);
    html = await (await user.get(`/br/researcher/index/details/${done.externalId}/thank-you`)).text();
    expect(html).toContain(`action="/br/certificate/edit/${issued.value.code}`);
    expect(html).not.toContain('data-certificate="pending"');
  });
});

describe("the server's error pages say 'network-request-error' with a reload link (no-JS modal)", () => {
  it("the 503 and 500 pages, translated, link to the address that failed", () => {
    const unavailable = renderUnavailablePage("cn", "/cn/researcher/submit/details?x=1");
    expect(unavailable).toContain("无法连接到门户");
    expect(unavailable).toContain('<a href="/cn/researcher/submit/details?x=1" data-reload>重新加载</a>');
    const generic = renderPlainErrorPage("br", "req-1", "/br/researcher");
    expect(generic).toContain("Não conseguimos acessar o portal");
    expect(generic).toContain('<a href="/br/researcher" data-reload>Recarregar</a>');
    // Never a link to another site.
    expect(renderUnavailablePage("en", "//evil.example/x")).toContain('<a href="" data-reload>');
  });

  it("the generic error page of the app has the message and a reload link to itself", async () => {
    const html = await (await new Client(portal.url).get("/jp/error")).text();
    expect(html).toContain("data-network-request-error");
    expect(html).toMatch(/<a class="button button-primary" href="\/jp\/error" data-reload="true">再読み込み<\/a>/);
  });
});
