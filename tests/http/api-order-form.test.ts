import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { saveDetailsAndPlace, sendJson as send, uploadDocx } from "../helpers/api";

let portal: TestPortal;
const H = { "content-type": "application/json" };
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

/** A new order form with a real .docx, basic details saved and services chosen: where most calls below start. */
async function startForm(c: Client, opts: { wordCount?: number; services?: string[] } = {}) {
  const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
  await uploadDocx(c, id);
  await send(c, "PUT", `/api/order-form/${id}/basic-details`, {
    customerGoal: "manuscript",
    wordCount: opts.wordCount ?? 2000,
    language: 1,
  });
  const selected = await send(c, "PUT", `/api/order-form/${id}/selected-service`, {
    serviceIdentities: opts.services ?? ["standard-editing"],
  });
  return { id, selected: (await selected.json()).orderForm as { total: number } };
}

describe("order-form API", () => {
  it("creates, walks and pays an order; amounts come from the server", async () => {
    const { client: c } = await portal.researcher();
    let r = await c.get("/api/order-form/new");
    expect(r.status).toBe(201);
    const id = (await r.json()).orderForm.identity;
    expect((await (await c.get("/api/order-form/new")).json()).orderForm.identity).toBe(id);
    expect((await (await c.get("/api/order-form/load")).json()).orderForm.identity).toBe(id);

    r = await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 1000000, language: 1 });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ fieldErrors: { wordCount: "word-count-range-error", files: "files-required" } });

    r = await uploadDocx(c, id);
    expect(r.status).toBe(201);
    // A renamed file is refused by content.
    const fake = new FormData();
    fake.append("mainFiles", new Blob([new TextEncoder().encode("MZ not really a document")]), "evil.docx");
    r = await c.request(`/api/order-form/${id}/files`, { method: "POST", body: fake });
    expect(r.status).toBe(400);
    expect((await r.json()).rejected[0].code).toBe("file-type-not-allowed");

    r = await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 4500, language: 1 });
    expect((await r.json()).orderForm.currentStep).toBe("manuscript-services");
    // Analysis runs in the background; the details call answers either way.
    const details = await (await c.get(`/api/order-form/${id}/document-details`)).json();
    expect(details).toHaveProperty("documentDetailsReceived");

    r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, {
      serviceIdentities: ["standard-editing"],
      deliveryTier: "standard",
      price: 1,
    });
    let form = (await r.json()).orderForm;
    expect(form.total).toBe(26000);
    expect(form.lineItems[0]).toMatchObject({ serviceSlug: "standard-editing", listPrice: 26000 });
    // Express for 4,000-5,999 words of standard editing.
    r = await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "express" });
    form = (await r.json()).orderForm;
    expect(form.deliveryTier).toBe("express");
    expect(form.total).toBeGreaterThan(26000);
    await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "standard" });

    expect((await send(c, "PUT", `/api/order-form/${id}/step`, { step: "payment-details" })).status).toBe(400);
    expect((await send(c, "PUT", `/api/order-form/${id}/step`, { step: "details" })).status).toBe(200);
    const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0];
    expect(area.searchParam).toContain("›");
    r = await send(c, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: "x".repeat(513),
      areaOfStudyId: area.id,
      styleOfEnglish: "american",
    });
    expect((await r.json()).fieldErrors.projectTitle).toBe("project-title-too-long");
    r = await send(c, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: "Temperature and growth",
      areaOfStudyId: area.id,
      styleOfEnglish: "british",
      journal: { name: "Nature", url: "ftp://x" },
    });
    expect((await r.json()).fieldErrors.journalUrl).toBe("journal-url-invalid");
    r = await send(c, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: "Temperature and growth",
      areaOfStudyId: area.id,
      styleOfEnglish: "british",
      journal: { name: "Nature", url: "https://www.nature.com" },
    });
    expect((await r.json()).orderForm.currentStep).toBe("payment-details");

    r = await send(c, "POST", `/api/order-form/${id}/payments`, { paymentMethodId: 4, acceptedTermsAndConditions: true });
    expect(await r.json()).toEqual({ error: "payment-method-required" });
    r = await send(c, "POST", `/api/order-form/${id}/payments`, { paymentMethodId: 9, acceptedTermsAndConditions: true });
    expect(r.status).toBe(201);
    const { order } = await r.json();
    expect(order).toMatchObject({ total: 26000, currencyIso: "USD", alreadyPlaced: false });
    // Paying twice returns the same order.
    r = await send(c, "POST", `/api/order-form/${id}/payments`, { paymentMethodId: 9, acceptedTermsAndConditions: true });
    expect(await r.json()).toMatchObject({ order: { externalId: order.externalId, alreadyPlaced: true } });
    const search = await (await c.get(`/api/order/search?xid=${order.externalId}`)).json();
    expect(search.orders.map((o: { externalId: string }) => o.externalId)).toEqual([order.externalId]);
    expect(search.orders[0].invoice).toMatchObject({ status: "unpaid", balance: 26000 });
    expect(search.pagination).toEqual({ page: 1, pageSize: 30, total: 1, pages: 1 });
    expect((await (await c.get("/api/order/search?xid=NOPE")).json()).pagination.total).toBe(0);
    expect((await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript" })).status).toBe(409);
  });

  it("never shows another user's or another draft's form, and refuses bad calls", async () => {
    const { client: owner } = await portal.researcher();
    const id = (await (await owner.get("/api/order-form/new")).json()).orderForm.identity;
    const { client: staff } = await portal.staff();
    expect((await staff.get(`/api/order-form/${id}/load`)).status).toBe(404);
    expect((await send(staff, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript" })).status).toBe(404);
    expect((await staff.get(`/api/order-form/${id}/document-details`)).status).toBe(404);
    expect((await uploadDocx(staff, id)).status).toBe(404);
    const anon = new Client(portal.url);
    expect((await anon.get(`/api/order-form/${id}/load`)).status).toBe(404);
    const anonForm = (await (await anon.get("/api/order-form/new")).json()).orderForm.identity;
    expect(anon.cookies.has("draft")).toBe(true);
    expect((await new Client(portal.url).get(`/api/order-form/${anonForm}/load`)).status).toBe(404);
    expect((await owner.get(`/api/order-form/${anonForm}/load`)).status).toBe(404);
    expect((await owner.get(`/api/order-form/${id}/nothing`)).status).toBe(404);
    expect((await owner.request(`/api/order-form/${id}/basic-details`, { method: "PUT", headers: H, body: "{" })).status).toBe(400);
    expect((await new Client(portal.url).get("/api/order/search")).status).toBe(401);
    const bin = await (await owner.get(`/api/order-form/${id}/get-bin-price?newWordCount=3001`)).json();
    expect(bin.newService.newWordBin).toBeTruthy();
  });
});

describe("promo codes", () => {
  it("apply one per order, report a better discount, and remove", async () => {
    const { client: c } = await portal.researcher();
    const { id, selected } = await startForm(c, { wordCount: 2000 });
    const before = selected.total;
    let r = await send(c, "PUT", `/api/order-form/${id}/discount-code/NOPE`);
    expect(await r.json()).toEqual({ error: "promo-code-invalid" });
    r = await send(c, "PUT", `/api/order-form/${id}/discount-code/welcome10`);
    const applied = await r.json();
    expect(applied.messages).toEqual(["coupon-applied-message"]);
    expect(applied.orderForm.total).toBe(Math.round(before * 0.9));
    expect(applied.orderForm.discounts[0]).toMatchObject({ kind: "Promotional Code", appliedAmount: before - Math.round(before * 0.9) });
    r = await send(c, "PUT", `/api/order-form/${id}/discount-code/SPRING5`);
    expect(await r.json()).toEqual({ error: "one-promo-code-per-order" });
    const benefits = await (await c.get(`/api/order-form/${id}/applicable-promotional-code-benefits`)).json();
    expect(benefits.promoCode).toBe("WELCOME10");
    r = await send(c, "DELETE", `/api/order-form/${id}/discount-code/WELCOME10`);
    const removed = await r.json();
    expect(removed.messages).toEqual(["coupon-removed-message"]);
    expect(removed.orderForm.total).toBe(before);
  });

  it("works from the My Order panel without JavaScript", async () => {
    const { client: c } = await portal.staff();
    await c.get("/en/researcher/submit/new");
    await c.post("/en/researcher/submit/get-started", {
      intent: "next",
      customerGoal: "manuscript",
      uploadFilesLater: "on",
      wordCount: "2000",
      languageId: "1",
    });
    await c.post("/en/researcher/submit/manuscript-services", { toggle: "standard-editing" });
    let r = await c.post("/en/researcher/submit/promo", {
      intent: "apply",
      code: "",
      redirect: "/en/researcher/submit/manuscript-services",
    });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/manuscript-services?promo=promo-code-empty");
    expect(await (await c.get(r.headers.get("location")!)).text()).toContain("Please enter a valid promo code");
    r = await c.post("/en/researcher/submit/promo", {
      intent: "apply",
      code: "WELCOME10",
      redirect: "/en/researcher/submit/manuscript-services",
    });
    const html = await (await c.get(r.headers.get("location")!)).text();
    expect(html).toContain("Your promo code has been applied.");
    expect(html).toContain("Promo code WELCOME10");
  });
});

describe("word count", () => {
  it("updates the price by word bin and validates the count", async () => {
    const { client: c } = await portal.researcher();
    const { id, selected } = await startForm(c, { wordCount: 4500 });
    expect(selected.total).toBe(26000);
    let r = await send(c, "PUT", `/api/order-form/${id}/update-word-count`, { newWordCount: 7000 });
    expect((await r.json()).order.total).toBe(37000);
    r = await send(c, "PUT", `/api/order-form/${id}/update-word-count`, { newWordCount: 0 });
    expect((await r.json()).fieldErrors.wordCount).toBe("value-cannot-be-zero");
    r = await send(c, "PUT", `/api/order-form/${id}/update-word-count`, { newWordCount: 1000000 });
    expect((await r.json()).fieldErrors.wordCount).toBe("word-count-range-error");
    r = await send(c, "PUT", `/api/order-form/${id}/manuscript-details`, { wordCount: 1500, language: 2 });
    const form = (await r.json()).orderForm;
    expect(form).toMatchObject({ wordCount: 1500, manuscriptLanguageId: 2, total: 9500 });
  });
});

describe("referral e-mails", () => {
  it("accept 1 to 10 addresses in total, comma-separated", async () => {
    const { client: c } = await portal.researcher();
    const id = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
    let r = await send(c, "PUT", `/api/order-form/${id}/referral-emails`, { referralEmails: [] });
    expect(await r.json()).toEqual({ error: "referral-email-validation-error" });
    r = await send(c, "PUT", `/api/order-form/${id}/referral-emails`, { referralEmails: "a@example.org, b@example.org,, " });
    expect((await r.json()).orderForm.referralEmails).toEqual(["a@example.org", "b@example.org"]);
    r = await send(c, "PUT", `/api/order-form/${id}/referral-emails`, {
      referralEmails: Array.from({ length: 9 }, (_, i) => `p${i}@example.org`),
    });
    expect(await r.json()).toEqual({ error: "referral-email-validation-error" });
    r = await send(c, "PUT", `/api/order-form/${id}/referral-emails`, { referralEmails: "not-an-email" });
    expect(r.status).toBe(400);
    r = await send(c, "PUT", `/api/order-form/${id}/referral-emails`, {
      referralEmails: Array.from({ length: 8 }, (_, i) => `p${i}@example.org`),
    });
    expect((await r.json()).messages).toEqual(["referral-email-save-success"]);
  });
});

describe("service bundle calls", () => {
  it("take the interest, the answers and the chosen bundle", async () => {
    const { client: c } = await portal.researcher();
    const { id } = await startForm(c, { wordCount: 2500 });
    await send(c, "POST", `/api/order-form/${id}/service-bundle-interest`, { interested: true });
    let r = await send(c, "POST", `/api/order-form/${id}/service-bundle-questions`, { answers: { goals: { choices: [] } } });
    expect((await r.json()).fieldErrors.goals).toBe("selectOneCheckbox");
    r = await send(c, "POST", `/api/order-form/${id}/service-bundle-questions`, { answers: { goals: { choices: ["choose-journal"] } } });
    const q = await r.json();
    expect(q.availableServiceBundles.map((b: { slug: string }) => b.slug)).toEqual(["publication-ready"]);
    r = await send(c, "POST", `/api/order-form/${id}/service-bundle`, { bundleId: q.availableServiceBundles[0].id });
    const body = await r.json();
    expect(body.orderForm.selectedServices).toContain("premium-editing");
    expect(body.orderForm.discounts[0].kind).toBe("Service bundle discount");
  });
});

describe("price quotes", () => {
  it("are generated, served as PDF to their owner only, e-mailed and converted back to the order", async () => {
    const { client: c, email } = await portal.researcher();
    const { id } = await startForm(c, { wordCount: 4500 });
    let r = await send(c, "PUT", `/api/order-form/${id}/generate-price-quote`);
    const generated = await r.json();
    expect(generated).toHaveProperty("estimateId");
    const { estimateId, pdf } = generated;
    expect(estimateId).toMatch(/^Q[0-9A-F]{12}$/);
    r = await c.get(`${pdf}?display=inline`);
    expect(r.headers.get("content-type")).toBe("application/pdf");
    expect(r.headers.get("content-disposition")).toMatch(/^inline; filename="price-quote-Q/);
    expect(
      Buffer.from(await r.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await c.get(pdf)).headers.get("content-disposition")).toMatch(/^attachment/);
    const { client: staff } = await portal.staff();
    expect((await staff.get(pdf)).status).toBe(404);
    expect((await new Client(portal.url).get(pdf)).status).toBe(404);
    r = await send(c, "POST", `/api/price-quote/${estimateId}/email`);
    expect(await r.json()).toEqual({ recipientEmail: email });
    const mail = await portal.ctx.db
      .selectFrom("mail_outbox")
      .select(["template", "text_body"])
      .where("template", "=", "price-quote")
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`/api/price-quote/${estimateId}/pdf`);
    expect((await send(staff, "POST", `/api/price-quote/${estimateId}/email`)).status).toBe(404);
    r = await send(c, "POST", `/api/order-form/${id}/convert-quote`);
    const converted = await r.json();
    expect(converted.redirectUri).toBe("/en/researcher/submit/details");
    expect(converted.orderForm.currentStep).toBe("details");

    // A form that had gone on to payment converts back to details too (spec 1 §4), not to payment.
    const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
    r = await send(c, "PUT", `/api/order-form/${id}/details`, { projectTitle: "Quoted", areaOfStudyId: area, styleOfEnglish: "american" });
    expect((await r.json()).orderForm.currentStep).toBe("payment-details");
    r = await send(c, "POST", `/api/order-form/${id}/convert-quote`);
    const again = await r.json();
    expect(again.redirectUri).toBe("/en/researcher/submit/details");
    expect(again.orderForm.currentStep).toBe("details");
  });

  it("work from the My Order panel without JavaScript", async () => {
    const c = new Client(portal.url);
    await c.get("/en/researcher/submit/new");
    await c.post("/en/researcher/submit/get-started", {
      intent: "next",
      customerGoal: "manuscript",
      uploadFilesLater: "on",
      wordCount: "1200",
      languageId: "1",
    });
    await c.post("/en/researcher/submit/manuscript-services", { toggle: "standard-editing" });
    let r = await c.post("/en/researcher/submit/quote", {});
    const page = r.headers.get("location")!;
    expect(page).toMatch(/\/en\/researcher\/submit\/price-quote-completed\?estimate=Q[0-9A-F]{12}$/);
    const html = await (await c.get(page)).text();
    expect(html).toMatch(/<iframe[^>]+src="\/api\/price-quote\/Q[0-9A-F]{12}\/pdf\?display=inline"[^>]+height="750"/);
    // The anonymous visitor's own browser may fetch it; convert goes on to details.
    const estimate = new URL(page, portal.url).searchParams.get("estimate")!;
    expect((await c.get(`/api/price-quote/${estimate}/pdf`)).status).toBe(200);
    r = await c.post("/en/researcher/submit/price-quote-completed", { intent: "convert", estimateId: estimate });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/details");
  });
});

describe("changing services after a bundle", () => {
  it("leaves the bundle so the order can still be priced", async () => {
    const { client: c } = await portal.researcher();
    const { id } = await startForm(c, { wordCount: 2500 });
    await send(c, "POST", `/api/order-form/${id}/service-bundle-interest`, { interested: true });
    const q = await (
      await send(c, "POST", `/api/order-form/${id}/service-bundle-questions`, { answers: { goals: { choices: ["choose-journal"] } } })
    ).json();
    await send(c, "POST", `/api/order-form/${id}/service-bundle`, { bundleId: q.availableServiceBundles[0].id });
    const r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["standard-editing"] });
    const form = (await r.json()).orderForm;
    expect(form.total).toBe(15000);
    expect(form.discounts).toEqual([]);
    expect((await (await send(c, "PUT", `/api/order-form/${id}/generate-price-quote`)).json()).estimateId).toMatch(/^Q/);
  });
});

describe("smaller order-form calls", () => {
  it("set a quantity, the journal and the currency, and find a duplicate title", async () => {
    const c = new Client(portal.url);
    await send(c, "POST", "/api/auth/register", {
      email: "small.calls@example.org",
      password: "small-calls-1",
      firstName: "S",
      lastName: "C",
      countryCode: "US",
      phoneNumber: "2025550166",
      country: "US",
      currency: "USD",
      language: "en",
      agreeToTOS: true,
    });
    const { id } = await startForm(c, { wordCount: 2000, services: ["standard-editing", "figure-formatting"] });
    // Express needs 4,000 to 5,999 words: refused at 2,000, and the form keeps the tier the engine priced.
    let r = await send(c, "PUT", `/api/order-form/${id}/update-delivery-tier`, { deliveryTier: "express" });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors.deliveryTier).toBe("delivery-tier-unavailable");
    expect((await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm.deliveryTier).toBe("standard");
    r = await send(c, "PUT", `/api/order-form/${id}/service-options/figure-formatting/quantity`, { quantity: 26 });
    expect((await r.json()).fieldErrors.quantity).toBe("quantity-range-error");
    r = await send(c, "PUT", `/api/order-form/${id}/service-options/figure-formatting/quantity`, { quantity: 4 });
    const line = (await r.json()).orderForm.lineItems.find((l: { serviceSlug: string }) => l.serviceSlug === "figure-formatting");
    expect(line).toMatchObject({ quantity: 4, listPrice: 10000 });
    r = await send(c, "PUT", `/api/order-form/${id}/journal`, { name: "", url: "x" });
    expect((await r.json()).fieldErrors).toEqual({ name: "journal-name-required", url: "journal-url-invalid" });
    r = await send(c, "PUT", `/api/order-form/${id}/journal`, { name: "Cell", url: "https://www.cell.com" });
    expect((await r.json()).orderForm.journal).toEqual({ name: "Cell", url: "https://www.cell.com" });
    // The currency is the anonymous visitor's picker (issue 9 §3.9): a signed-in user keeps the account's.
    r = await send(c, "PUT", `/api/order-form/${id}/details`, { currencyIso: "EUR" });
    expect(r.status).toBe(403);
    expect((await r.json()).error).toBe("currency-change-not-allowed");
    const anon = new Client(portal.url);
    const { id: anonId } = await startForm(anon);
    r = await send(anon, "PUT", `/api/order-form/${anonId}/details`, { currencyIso: "CNY" });
    expect((await r.json()).fieldErrors.currencyIso).toBe("generic-touchup-error");
    r = await send(anon, "PUT", `/api/order-form/${anonId}/details`, { currencyIso: "EUR" });
    expect((await r.json()).orderForm.currency.isoCode).toBe("EUR");
    expect(await (await c.get("/api/order/duplicate?title=Nothing%20like%20this")).json()).toEqual({ order: null });
  });
});

describe("duplicate orders", () => {
  it("send a second order with the same title through the duplicate screen", async () => {
    const { client: c } = await portal.researcher();
    const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
    const walk = async () => {
      const { id } = await startForm(c);
      await send(c, "PUT", `/api/order-form/${id}/step`, { step: "details" });
      return id;
    };
    const first = await walk();
    const placed = await saveDetailsAndPlace(c, first, "Same Title");
    expect((await (await c.get("/api/order/duplicate?title=same%20title")).json()).order).toMatchObject({
      externalId: placed.order.externalId,
      hoursAgo: 0,
    });

    const second = await walk();
    const r = await send(c, "PUT", `/api/order-form/${second}/details`, {
      projectTitle: "Same Title",
      areaOfStudyId: area,
      styleOfEnglish: "american",
    });
    expect((await r.json()).orderForm.currentStep).toBe("duplicate-order");
    const page = await (await c.get("/en/researcher/submit/duplicate-order")).text();
    expect(page).toContain(placed.order.externalId);
    let res = await c.post("/en/researcher/submit/duplicate-order", {});
    expect(res.status).toBe(400);
    res = await c.post("/en/researcher/submit/duplicate-order", { choice: "new-order" });
    expect(res.headers.get("location")).toBe("/en/researcher/submit/payment-details");
  });
});

describe("journal search", () => {
  it("needs 3 characters and gives at most 10 suggestions", async () => {
    const c = new Client(portal.url);
    expect(await (await c.get("/api/journals?q=na")).json()).toEqual({ journals: [] });
    const { journals } = await (await c.get("/api/journals?q=nature")).json();
    expect(journals[0].name).toBe("Nature");
    expect(journals.length).toBeLessThanOrEqual(10);
    expect(journals.every((j: { name: string }) => /nature/i.test(j.name))).toBe(true);
    const issn = await (await c.get("/api/journals?q=0092-8674")).json();
    expect(issn.journals.map((j: { name: string }) => j.name)).toEqual(["Cell"]);
  });
});
