// Issue 9 §3: the order wizard's logic defects (items 2, 3, 5, 7, 9, 10, 11), over the JSON API and the
// pages without JavaScript. Each test failed before its fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { sendJson as send, uploadDocx } from "../helpers/api";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

interface FormView {
  identity: string;
  currentStep: string;
  deliveryTier: string;
  currency: { isoCode: string };
  lineItems: { serviceSlug: string }[];
  wordCount: number | null;
  languageId: number | null;
}

/** A new order form of client `c` with basic details saved and `services` chosen (a .docx unless `later`). */
async function startForm(c: Client, opts: { wordCount?: number; services?: string[]; later?: boolean } = {}) {
  const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
  if (!opts.later) await uploadDocx(c, id);
  const basic = await send(c, "PUT", `/api/order-form/${id}/basic-details`, {
    customerGoal: "manuscript",
    wordCount: opts.wordCount ?? 2000,
    language: 1,
    uploadFilesLater: opts.later === true,
  });
  expect(basic.status).toBe(200);
  const r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: opts.services ?? ["standard-editing"] });
  expect(r.status).toBe(200);
  return id;
}

async function load(c: Client, id: string): Promise<FormView> {
  return (await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm;
}

async function areaId(): Promise<number> {
  const row = await portal.ctx.db.selectFrom("areas_of_study").select("id").where("level", "=", 3).orderBy("id").executeTakeFirstOrThrow();
  return row.id;
}

describe("§3.2 declining English editing", () => {
  it("clears the selection and rush (API)", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    let r = await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "rush" });
    expect((await r.json()).orderForm.deliveryTier).toBe("rush");
    r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, {
      serviceIdentities: ["standard-editing"],
      deliveryTier: "rush",
      declineEditing: true,
    });
    expect(r.status).toBe(200);
    const form = (await r.json()).orderForm as FormView;
    expect(form.lineItems).toEqual([]);
    expect(form.deliveryTier).toBe("standard");
  });

  it("clears the selection and rush (page without JavaScript)", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "rush" });
    const r = await c.post("/en/researcher/submit/manuscript-services", {
      intent: "next",
      services: "standard-editing",
      declineEditing: "on",
    });
    expect(r.status).toBe(303);
    const form = await load(c, id);
    expect(form.lineItems).toEqual([]);
    expect(form.deliveryTier).toBe("standard");
  });
});

describe("§3.3 delivery tiers", () => {
  it("resets express when the word count leaves 4,000–5,999", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { wordCount: 4500 });
    let r = await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "express" });
    expect((await r.json()).orderForm.deliveryTier).toBe("express");
    r = await send(c, "PUT", `/api/order-form/${id}/manuscript-details`, { wordCount: 7000, language: 1 });
    expect(r.status).toBe(200);
    expect((await r.json()).orderForm.deliveryTier).toBe("standard");

    await send(c, "PUT", `/api/order-form/${id}/manuscript-details`, { wordCount: 4500, language: 1 });
    await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "express" });
    r = await send(c, "PUT", `/api/order-form/${id}/update-word-count`, { newWordCount: 3000 });
    expect((await r.json()).orderForm.deliveryTier).toBe("standard");

    // The get-started step and the services page's word-count form too.
    await send(c, "PUT", `/api/order-form/${id}/manuscript-details`, { wordCount: 4500, language: 1 });
    await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "express" });
    r = await c.post("/en/researcher/submit/manuscript-services", { intent: "word-count", wordCount: "8000" });
    expect(r.status).toBe(303);
    expect((await load(c, id)).deliveryTier).toBe("standard");
    await send(c, "PUT", `/api/order-form/${id}/manuscript-details`, { wordCount: 4500, language: 1 });
    await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "express" });
    r = await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 9000, language: 1 });
    expect((await r.json()).orderForm.deliveryTier).toBe("standard");
  });

  it("refuses an unknown tier instead of pricing it as standard", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { wordCount: 4500 });
    let r = await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "turbo" });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ fieldErrors: { deliveryTier: "delivery-tier-unknown" } });
    r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["standard-editing"], deliveryTier: "turbo" });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ fieldErrors: { deliveryTier: "delivery-tier-unknown" } });
  });

  it("the bundle call refuses rush and express together", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { wordCount: 4500 });
    let r = await send(c, "POST", `/api/order-form/${id}/service-bundle`, { bundleId: null, rush: true, express: true });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ fieldErrors: { delivery: "rush-and-express" } });
    r = await send(c, "POST", `/api/order-form/${id}/service-bundle`, { bundleId: null, delivery: "turbo" });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ fieldErrors: { delivery: "delivery-tier-unknown" } });
  });
});

describe("§3.5 continuing a previous submission", () => {
  it("warns with the reset link on whichever step /new resumes", async () => {
    const c = new Client(portal.url);
    await startForm(c);
    const r = await c.get("/en/researcher/submit/new");
    const location = r.headers.get("location")!;
    // The form stands at additional-services (services were chosen): not the get-started step.
    expect(location).toBe("/en/researcher/submit/additional-services?continue=1");
    const html = await (await c.get(location)).text();
    expect(html).toContain("You are continuing an order you started earlier.");
    expect(html).toContain('href="/en/researcher/submit/reset"');
  });
});

describe("§3.7 journal fields", () => {
  it("are hidden for scientific editing, shown otherwise", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { services: ["scientific-editing"] });
    await c.post("/en/researcher/submit/additional-services", { intent: "next" });
    let html = await (await c.get("/en/researcher/submit/details")).text();
    expect(html).toContain('name="projectTitle"');
    expect(html.includes('name="journalName"')).toBe(false);
    expect(html.includes('name="journalUrl"')).toBe(false);
    // A journal posted anyway is not kept.
    const r = await send(c, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: "Scientific review",
      areaOfStudyId: await areaId(),
      styleOfEnglish: "american",
      journal: { name: "Nature" },
    });
    expect(r.status).toBe(200);
    expect((await r.json()).orderForm.journal ?? null).toBeNull();

    const other = new Client(portal.url);
    await startForm(other);
    await other.post("/en/researcher/submit/additional-services", { intent: "next" });
    html = await (await other.get("/en/researcher/submit/details")).text();
    expect(html).toContain('name="journalName"');
  });
});

describe("§3.9 missing pieces", () => {
  it("review-additional-services opens the additional-services step", async () => {
    const c = new Client(portal.url);
    let r = await c.get("/en/researcher/submit/review-additional-services");
    // No order form yet: to /new, like every step.
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/new");
    await startForm(c);
    r = await c.get("/en/researcher/submit/review-additional-services");
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('name="bundleInterest"');
    // Its Next saves the additional-services step.
    r = await c.post("/en/researcher/submit/review-additional-services", { intent: "next" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/details");
  });

  it("?logout on any page leads a signed-in user to sign out (confirmed by a POST)", async () => {
    const { client: c } = await portal.researcher();
    let r = await c.get("/en/researcher/submit/new?logout");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/en/logout");
    // The GET changed nothing: still signed in.
    expect((await c.get("/api/account")).status).toBe(200);
    r = await c.get("/en/account?logout=1");
    expect(r.headers.get("location")).toBe("/en/logout");
    r = await c.post("/en/logout", {});
    expect(r.status).toBe(303);
    expect((await c.get("/api/account")).status).toBe(401);
    // A visitor who is not signed in just sees the page.
    r = await new Client(portal.url).get("/en/login?logout");
    expect(r.status).toBe(200);
  });

  it("DELETE …/discount-code/{code} removes only that code", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    const code = "WELCOME10";
    let r = await send(c, "PUT", `/api/order-form/${id}/discount-code/${code}`);
    expect(r.status).toBe(200);
    r = await send(c, "DELETE", `/api/order-form/${id}/discount-code/SOMETHING-ELSE`);
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ error: "promo-code-not-applied" });
    let row = await portal.ctx.db.selectFrom("order_forms").select("promo_code").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.promo_code).toBe(code);
    r = await send(c, "DELETE", `/api/order-form/${id}/discount-code/welcome10`);
    expect(r.status).toBe(200);
    row = await portal.ctx.db.selectFrom("order_forms").select("promo_code").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.promo_code).toBeNull();
  });

  it("a signed-in user cannot change the order currency through PUT …/details", async () => {
    const { client: c } = await portal.researcher();
    const id = await startForm(c);
    const before = (await load(c, id)).currency.isoCode;
    const r = await send(c, "PUT", `/api/order-form/${id}/details`, { currencyIso: before === "EUR" ? "GBP" : "EUR" });
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ error: "currency-change-not-allowed" });
    expect((await load(c, id)).currency.isoCode).toBe(before);
    // An anonymous visitor may.
    const anon = new Client(portal.url);
    const anonId = await startForm(anon);
    const ok = await send(anon, "PUT", `/api/order-form/${anonId}/details`, { currencyIso: "EUR" });
    expect(ok.status).toBe(200);
    expect((await load(anon, anonId)).currency.isoCode).toBe("EUR");
  });

  it("a failed currency save shows generic-touchup-error", async () => {
    const c = new Client(portal.url);
    await startForm(c);
    const r = await c.post("/en/researcher/submit/currency", { currencyIso: "XXX", redirect: "/en/researcher/submit/manuscript-services" });
    expect(r.status).toBe(303);
    const location = r.headers.get("location")!;
    expect(location).toBe("/en/researcher/submit/manuscript-services?currency=error");
    const html = await (await c.get(location)).text();
    expect(html).toContain("Your currency could not be saved. Please try again.");
  });
});

describe("§3.10 manuscript details", () => {
  it("the API refuses manuscript details without a language", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    const r = await send(c, "PUT", `/api/order-form/${id}/manuscript-details`, { wordCount: 3000 });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ fieldErrors: { languageId: "value-required" } });
  });
});

describe("§3.10 the word-bin mismatch notice", () => {
  it("offers the counted words when they fall in another word bin: closable, and a form changes the count", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { wordCount: 9000 });
    let details: { documentDetailsReceived: boolean; wordCount: number } = { documentDetailsReceived: false, wordCount: 0 };
    for (let i = 0; i < 300 && !details.documentDetailsReceived; i++) {
      details = await (await c.get(`/api/order-form/${id}/document-details`)).json();
      if (!details.documentDetailsReceived) await new Promise((r) => setTimeout(r, 100));
    }
    expect(details.documentDetailsReceived).toBe(true);
    const counted = details.wordCount;
    expect(counted).toBeLessThan(1500);
    const page = "/en/researcher/submit/manuscript-services";
    let html = await (await c.get(page)).text();
    expect(html).toContain("word-bin-notice");
    expect(html).toContain(`We counted ${counted} words in your manuscript`);
    expect(html).toMatch(new RegExp(`name="wordCount"[^>]*value="${counted}"`));
    // One word-count form at a time (issue 22 §6: two filled a phone's first screen): the notice's.
    expect(html.match(/name="wordCount"/g)).toHaveLength(1);
    expect(html).toContain(`href="${page}?binNotice=closed"`);
    // Closing is a link: it hides the notice and changes nothing; the page's own word-count form is back.
    html = await (await c.get(`${page}?binNotice=closed`)).text();
    expect(html.includes("word-bin-notice")).toBe(false);
    expect(html).toMatch(/id="wc-edit"[^>]*value="9000"/);
    expect((await load(c, id)).wordCount).toBe(9000);
    // The notice's form changes the count (the services page's word-count form), and the notice goes.
    const r = await c.post(page, { intent: "word-count", wordCount: String(counted) });
    expect(r.status).toBe(303);
    expect((await load(c, id)).wordCount).toBe(counted);
    html = await (await c.get(page)).text();
    expect(html.includes("word-bin-notice")).toBe(false);
  });
});

describe("§3.10 Back saves the step", () => {
  it("on the services, additional-services and details pages, without moving the furthest step on", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c);
    await send(c, "PUT", `/api/order-form/${id}/step`, { step: "manuscript-services" });
    let html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toMatch(/<button[^>]*name="intent"[^>]*value="back"/);
    let r = await c.post("/en/researcher/submit/manuscript-services", { intent: "back", declineEditing: "on" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/get-started");
    let form = await load(c, id);
    expect(form.lineItems).toEqual([]);
    expect((form as unknown as { declineEditingServices: boolean }).declineEditingServices).toBe(true);

    const d = new Client(portal.url);
    const did = await startForm(d);
    await d.post("/en/researcher/submit/additional-services", { intent: "next" });
    html = await (await d.get("/en/researcher/submit/details")).text();
    expect(html).toMatch(/<button[^>]*name="intent"[^>]*value="back"/);
    // An unfinished step is kept as far as it goes: the title, not the missing area of study.
    r = await d.post("/en/researcher/submit/details", { intent: "back", projectTitle: "A draft title" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/additional-services");
    form = await load(d, did);
    expect((form as unknown as { projectTitle: string }).projectTitle).toBe("A draft title");
    expect(form.currentStep).toBe("details");
    r = await d.post("/en/researcher/submit/additional-services", { intent: "back", bundleInterest: "on" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/manuscript-services");
    expect((await load(d, did)).currentStep).toBe("details");
  });
});

describe("§3.11 upload files later", () => {
  it("details accepts 'later'; payment asks for the files with a link to upload them", async () => {
    const c = new Client(portal.url);
    const id = await startForm(c, { later: true });
    await c.post("/en/researcher/submit/additional-services", { intent: "next" });
    let r = await send(c, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: "Files come later",
      areaOfStudyId: await areaId(),
      styleOfEnglish: "american",
    });
    expect(r.status).toBe(200);
    expect((await r.json()).orderForm.currentStep).toBe("payment-details");

    // The page: the same answer without JavaScript.
    const page = new Client(portal.url);
    await startForm(page, { later: true });
    await page.post("/en/researcher/submit/additional-services", { intent: "next" });
    r = await page.post("/en/researcher/submit/details", {
      intent: "next",
      projectTitle: "Files come later too",
      areaOfStudyId: String(await areaId()),
      styleOfEnglish: "american",
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/payment-details");

    // Payment (signed in) says what is missing, links to the upload, and places nothing.
    const { client: signed } = await portal.researcher();
    const sid = await startForm(signed, { later: true });
    await send(signed, "PUT", `/api/order-form/${sid}/details`, {
      projectTitle: "Signed in, files later",
      areaOfStudyId: await areaId(),
      styleOfEnglish: "american",
    });
    const html = await (await signed.get("/en/researcher/submit/payment-details")).text();
    expect(html).toContain("Your cart has no manuscript or figure file uploaded. Please upload your files and try again.");
    expect(html).toContain('href="/en/researcher/submit/details#files"');
    r = await send(signed, "POST", `/api/order-form/${sid}/payments`, { paymentMethodId: 9, acceptedTermsAndConditions: true });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ error: "no-files" });
  });
});
