// Re-edit (rework) orders: the re-edit page, the rework start screen
// (rework-get-started, PUT rework-basic-details), the rework services priced
// against the original order with the re-edit discount, and access checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";
import { saveDetailsAndPlace, sendJson as send, uploadDocx } from "../helpers/api";
import { createStaff } from "../helpers/factories";
import { transitionOrder } from "../../server/orders/life";
import { addDeliverable } from "../../server/orders/deliverables";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

async function uploadRevised(c: Client, id: string) {
  expect((await uploadDocx(c, id, { text: "Revised results on soil bacteria and drought. ", name: "revised.docx" })).status).toBe(201);
}

/** Places a bank-transfer order with `services` at 3,000 words and returns its external id and line items. */
async function placeOrder(c: Client, services: string[], title: string) {
  const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
  await uploadRevised(c, id);
  await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 3000, language: 1 });
  await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: services });
  await send(c, "PUT", `/api/order-form/${id}/step`, { step: "details" });
  const placed = await saveDetailsAndPlace(c, id, title);
  expect(placed.order.externalId).toMatch(/^RS\d+$/);
  return placed.order.externalId as string;
}

/**
 * A re-edit is offered for a completed order whose files can be downloaded (issue 11 §4): staff start and
 * complete it with a delivered file, and its invoice is settled (payments arrive with a later issue: by hand).
 */
async function completeAndPay(externalId: string) {
  const staff = await createStaff(portal.ctx);
  const row = await portal.ctx.db.selectFrom("orders").select("id").where("external_id", "=", externalId).executeTakeFirstOrThrow();
  const actor = { userId: staff.id };
  expect((await transitionOrder(portal.ctx, actor, { orderId: row.id }, "start")).ok).toBe(true);
  const pdf = new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"));
  expect((await addDeliverable(portal.ctx, actor, row.id, pdf, "edited.pdf")).ok).toBe(true);
  expect((await transitionOrder(portal.ctx, actor, { orderId: row.id }, "complete")).ok).toBe(true);
  await portal.ctx.db.updateTable("orders").set({ paid: true }).where("id", "=", row.id).execute();
  await portal.ctx.db.updateTable("invoices").set({ status: "paid", balance: 0 }).where("order_id", "=", row.id).execute();
}

describe("rework through the API", () => {
  it("opens a rework form for the user's own order, checks the start screen and prices touch-ups with the re-edit discount", async () => {
    const { client: c } = await portal.researcher();
    const original = await placeOrder(c, ["premium-editing"], "Drought and soil bacteria");
    // Only placed: no re-edit yet.
    expect((await send(c, "POST", `/api/order-form/rework/${original}`)).status).toBe(404);
    await completeAndPay(original);

    // Another user, an unknown id, and no sign-in: no rework form.
    const { client: other } = await portal.researcher();
    expect((await send(other, "POST", `/api/order-form/rework/${original}`)).status).toBe(404);
    expect((await send(c, "POST", "/api/order-form/rework/RS999999")).status).toBe(404);
    expect((await send(new Client(portal.url), "POST", `/api/order-form/rework/${original}`)).status).toBe(401);

    let r = await send(c, "POST", `/api/order-form/rework/${original}`);
    expect(r.status).toBe(201);
    let form = (await r.json()).orderForm;
    expect(form).toMatchObject({
      rework: true,
      currentStep: "rework-get-started",
      projectTitle: "Drought and soil bacteria",
      wordCount: 3000,
    });
    expect(form.reworkOf).toMatchObject({ externalId: original, title: "Drought and soil bacteria" });
    expect(form.reworkOf.services).toEqual({ "touch-up-editing": "premium-editing", "automated-re-editing": "premium-editing" });
    const id = form.identity;
    // Opening it again resumes the same form.
    expect((await (await send(c, "POST", `/api/order-form/rework/${original}`)).json()).orderForm.identity).toBe(id);
    // Another user cannot reach the rework form either.
    expect(
      (await send(other, "PUT", `/api/order-form/${id}/rework-basic-details`, { wordCount: 3000, language: 1, uploadFilesLater: true }))
        .status,
    ).toBe(404);

    // The start screen's rules: files or "later", a word count of 1 to 999,999, instructions of at most 2,000 characters.
    r = await send(c, "PUT", `/api/order-form/${id}/rework-basic-details`, {
      wordCount: 3200,
      language: 1,
      instructions: "x".repeat(2001),
    });
    expect((await r.json()).fieldErrors).toEqual({ instructions: "rework-instructions-too-long" });
    r = await send(c, "PUT", `/api/order-form/${id}/rework-basic-details`, { wordCount: 0, language: 1 });
    expect((await r.json()).fieldErrors).toMatchObject({ files: "files-required", wordCount: "word-count-range-error" });
    await uploadRevised(c, id);
    r = await send(c, "PUT", `/api/order-form/${id}/rework-basic-details`, {
      wordCount: 3200,
      language: 1,
      instructions: "  Please check the discussion section.  ",
    });
    form = (await r.json()).orderForm;
    expect(form).toMatchObject({ currentStep: "manuscript-services", wordCount: 3200, customerGoal: "manuscript" });
    expect(form.reworkOf.instructions).toBe("Please check the discussion section.");

    // Only the rework services of the original order can be chosen.
    r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["standard-editing"] });
    expect((await r.json()).fieldErrors.serviceSlugs).toBe("make-selection");
    // Automated re-editing is free after premium editing.
    form = (await (await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["automated-re-editing"] })).json())
      .orderForm;
    expect(form.total).toBe(0);
    // A touch-up is 30 % of the premium editing it touches up, at the new word count; the re-edit discount takes half.
    form = (await (await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["touch-up-editing"] })).json())
      .orderForm;
    const line = form.lineItems[0];
    expect(line.serviceSlug).toBe("touch-up-editing");
    expect(form.selections[0]).toEqual({ serviceSlug: "touch-up-editing", originalServiceSlug: "premium-editing" });
    const reedit = form.discounts.find((d: { kind: string }) => d.kind === "Re-edit discount");
    expect(reedit).toMatchObject({ showDescription: false, appliedAmount: Math.round(line.listPrice / 2) });
    expect(form.total).toBe(line.listPrice - Math.round(line.listPrice / 2));
    expect(form.total).toBeGreaterThan(0);

    // No bundles on a re-edit: new services at a bundle price would take the re-edit discount too.
    r = await send(c, "POST", `/api/order-form/${id}/service-bundle-interest`, { interested: true });
    expect((await r.json()).orderForm.steps.list.map((s: { name: string }) => s.name)).not.toContain("service-bundles");
    r = await send(c, "POST", `/api/order-form/${id}/service-bundle`, { bundleId: 1 });
    expect(r.status).toBe(400);

    // Placed, the new order records the order it reworks.
    await send(c, "PUT", `/api/order-form/${id}/step`, { step: "details" });
    const placed = await saveDetailsAndPlace(c, id, "Drought and soil bacteria (re-edit)");
    expect(placed.order.total).toBe(form.total);
    const row = await portal.ctx.db
      .selectFrom("orders as o")
      .innerJoin("orders as orig", "orig.id", "o.rework_of_order_id")
      .select(["orig.external_id"])
      .where("o.external_id", "=", placed.order.externalId)
      .executeTakeFirst();
    expect(row?.external_id).toBe(original);
  });

  it("refuses rework-basic-details on an ordinary order form", async () => {
    const { client: c } = await portal.researcher();
    const id = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
    const r = await send(c, "PUT", `/api/order-form/${id}/rework-basic-details`, { wordCount: 3000, language: 1, uploadFilesLater: true });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toEqual({ rework: "not-a-rework-form" });
    // And an ordinary form cannot choose rework services.
    await send(c, "PUT", `/api/order-form/${id}/basic-details`, {
      customerGoal: "manuscript",
      wordCount: 3000,
      language: 1,
      uploadFilesLater: true,
    });
    expect(
      (await (await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["touch-up-editing"] })).json())
        .fieldErrors.serviceSlugs,
    ).toBe("make-selection");
  });
});

describe("rework pages without JavaScript", () => {
  it("goes from the re-edit page to the rework start screen and on to the rework services", async () => {
    const { client: c } = await portal.researcher();
    const original = await placeOrder(c, ["standard-editing"], "Coral bleaching in 2026");
    // A placed order offers no re-edit: no link, and the re-edit page sends home (spec 2 §8).
    expect(await (await c.get(`/en/researcher/index/details/${original}`)).text()).not.toContain(
      `/en/researcher/index/re-edit/${original}`,
    );
    expect((await c.get(`/en/researcher/index/re-edit/${original}`)).headers.get("location")).toBe("/en");
    await completeAndPay(original);

    // The order details link to the re-edit page, which shows the order and links on.
    expect(await (await c.get(`/en/researcher/index/details/${original}`)).text()).toContain(`/en/researcher/index/re-edit/${original}`);
    let r = await c.get(`/en/researcher/index/re-edit/${original}`);
    expect(r.status).toBe(200);
    let html = await r.text();
    expect(html).toContain("Coral bleaching in 2026");
    expect(html).toContain(`href="/api/order-form/reedit/${original}"`);
    expect(html).toContain("Return to my orders");

    // Not found (someone else's order): home.
    const { client: other } = await portal.researcher();
    r = await other.get(`/en/researcher/index/re-edit/${original}`);
    expect(r.headers.get("location")).toBe("/en");
    r = await other.get(`/en/researcher/submit/new?rework=${original}`);
    expect(r.headers.get("location")).toBe("/en");

    // The Continue link: the API path sends on to the wizard, which opens the rework form.
    r = await c.get(`/api/order-form/reedit/${original}`);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/researcher/submit/new?rework=${original}`);
    // The link asks first; the re-edit starts with the confirmation's POST (issue 10 §10).
    r = await c.get(`/en/researcher/submit/new?rework=${original}`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain(`<input type="hidden" name="rework" value="${original}"/>`);
    r = await c.post(`/en/researcher/submit/new`, { rework: original });
    expect(r.headers.get("location")).toBe("/en/researcher/submit/rework-get-started");
    html = await (await c.get("/en/researcher/submit/rework-get-started")).text();
    expect(html).toContain(`Re-editing order ${original}: Coral bleaching in 2026.`);
    expect(html).toContain('name="instructions"');
    expect(html).not.toContain('name="customerGoal"');

    // The start screen's form, with a revised .docx.
    const fd = new FormData();
    fd.append("intent", "next");
    fd.append("wordCount", "2800");
    fd.append("languageId", "1");
    fd.append("instructions", "The reviewers asked for a clearer abstract.");
    fd.append(
      "mainFiles",
      new Blob([new Uint8Array(await makeDocx("Coral reefs bleach when the sea warms. ".repeat(30)))]),
      "revised.docx",
    );
    r = await c.request("/en/researcher/submit/rework-get-started", { method: "POST", body: fd });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/researcher/submit/manuscript-services");

    // The services step offers the touch-ups of this order's editing, and no ordinary services.
    html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toContain('value="touch-up-editing"');
    expect(html).not.toContain('value="touch-up-formatting"');
    expect(html).toContain('value="automated-re-editing"');
    expect(html).not.toContain('value="premium-editing"');
    expect(html).not.toContain('value="touch-up-translation"');
    r = await c.post("/en/researcher/submit/manuscript-services", { toggle: "touch-up-editing" });
    expect(r.status).toBe(303);
    html = await (await c.get("/en/researcher/submit/manuscript-services")).text();
    expect(html).toContain('<input type="hidden" name="services" value="touch-up-editing"/>');

    // Anonymous visitors are asked to sign in first.
    r = await new Client(portal.url).get(`/en/researcher/submit/new?rework=${original}`);
    expect(r.headers.get("location")).toBe(`/en/login?redirect=${encodeURIComponent(`/en/researcher/submit/new?rework=${original}`)}`);
  });
});
