// Issue 22 item 5 (part): the order wizard's screens and states — single-rush preselection, the four descriptions
// no card opened, the figure and table reference files, the no-JS equivalent of 'network-request-error'. Each
// test failed before its change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { sendJson as send, uploadDocx } from "../helpers/api";
import { makeDocx } from "../helpers/fixtures";

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
