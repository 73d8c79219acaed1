// Spec calls and fields that were missing (issue 22 items 4 and 8), over HTTP: the order-form load carries what
// the wizard offers (spec 1 §3), GET /api/order/{id}/payment (spec 2 §7), /api/invoice/load under spec 2 §3's
// invoice names, the journal name capped as the pages cap it, the audit's stop row on a sign-out while viewing as
// a researcher, and one draft for twenty concurrent "new" calls.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertMinor, USD } from "#common/money";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { saveDetailsAndPlace, sendJson as send, uploadDocx } from "../helpers/api";
import { createInvoice, createOrderFormFor, createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { pendingBoleto, recordProviderPayment } from "../helpers/invoices";
import { seedPrepayment } from "../helpers/balances";
import { paymentSubmission } from "../helpers/payments";
import { invalidateCatalogue } from "../../server/catalogue/load";
import { payOrderForm } from "../../server/orders/pay";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

/** A new order form with a real .docx, 2000 words in English and standard editing chosen. */
async function startForm(c: Client) {
  const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
  expect((await uploadDocx(c, id)).status).toBe(201);
  await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 2000, language: 1 });
  expect((await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["standard-editing"] })).status).toBe(200);
  return id;
}

const isKey = (s: string) => /^[a-z]+:[a-z]/.test(s);

describe("GET /api/order-form/{id}/load (spec 1 §3)", () => {
  it("carries what the wizard offers: services with their prices, groups, goals, languages, detection, holidays", async () => {
    const { client: c } = await portal.researcher();
    const id = await startForm(c);
    // A holiday ahead and one gone by, in the US localisation's calendar.
    await portal.ctx.db
      .insertInto("holidays")
      .values([
        { localization: "US", date: "2099-12-24", name: "Far ahead" },
        { localization: "US", date: "2001-01-02", name: "Long ago" },
      ])
      .onConflict((oc) => oc.columns(["localization", "date"]).doNothing())
      .execute();
    await invalidateCatalogue(portal.ctx.cache);

    // The analysis runs in the background: wait for it, then the load says what it found.
    let details = { documentDetailsReceived: false, wordCount: null as number | null, manuscriptLanguageId: null as number | null };
    for (let i = 0; i < 60 && !details.documentDetailsReceived; i++) {
      details = await (await c.get(`/api/order-form/${id}/document-details`)).json();
      if (!details.documentDetailsReceived) await new Promise((r) => setTimeout(r, 250));
    }
    expect(details.documentDetailsReceived).toBe(true);

    const r = await c.get(`/api/order-form/${id}/load`);
    expect(r.status).toBe(200);
    const form = (await r.json()).orderForm;

    expect(form.customerGoals).toEqual([
      { name: "manuscript", requiresWordCount: true },
      { name: "multimedia", requiresWordCount: false },
    ]);
    expect(form.manuscriptLanguages.length).toBeGreaterThan(1);
    expect(form.manuscriptLanguages[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    expect(form.manuscriptLanguages.find((l: { id: number }) => l.id === 1).name).toBe("English");
    expect(form.calculatedWordCount).toBe(details.wordCount);
    expect(form.calculatedWordCount).toBeGreaterThan(0);
    expect(form.detectedLanguageId).toBe(details.manuscriptLanguageId);
    expect(form.holidays).toContain("2099-12-24");
    expect(form.holidays).not.toContain("2001-01-02");
    expect(form.duplicateOrder).toBeNull();

    // The services step's cards: named, priced in the form's currency, the chosen one marked.
    const editing = form.availableServices.find((s: { id: string }) => s.id === "standard-editing");
    expect(editing).toMatchObject({ identity: expect.any(String), type: "editing", selection: true, disabled: false });
    expect(editing.listPrice).toBeGreaterThan(0);
    expect(isKey(editing.name)).toBe(false);
    expect(form.availableServices.every((s: { name: string }) => !isKey(s.name))).toBe(true);
    // Only the manuscript step's groups, each with its lowest price and "from" label.
    expect(form.serviceGroups.map((g: { slug: string }) => g.slug)).toEqual(["editing", "translation", "formatting"]);
    const group = form.serviceGroups[0];
    const lowest = Math.min(
      ...form.availableServices
        .filter((s: { group: string; listPrice: number | null }) => s.group === "editing" && s.listPrice !== null)
        .map((s: { listPrice: number }) => s.listPrice),
    );
    expect(group.price).toBe(lowest);
    expect(group.priceLabel).toMatch(/^from \$\d/);
    expect(group.services).toContain("standard-editing");

    // The chosen service with its details and priced line.
    expect(form.services).toHaveLength(1);
    expect(form.services[0]).toMatchObject({
      serviceSlug: "standard-editing",
      id: "standard-editing",
      type: "editing",
      quantity: 1,
      deliveryTier: "standard",
      options: { rush: false, deliveryTier: "standard" },
    });
    expect(form.services[0].listPrice).toBeGreaterThan(0);
    expect(form.services[0].options.price).toBe(form.lineItems[0].totalPrice);
    expect(Date.parse(form.services[0].options.deadline)).toBeGreaterThan(Date.now());
    expect(isKey(form.services[0].name)).toBe(false);

    // In Chinese the names and the label are Chinese.
    c.cookies.set("lang", "cn");
    const cn = (await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm;
    expect(cn.serviceGroups[0].priceLabel).toContain("起");
    expect(cn.availableServices.find((s: { id: string }) => s.id === "standard-editing").name).not.toBe(editing.name);
  });

  it("names the user's order of the same title in the last 7 days (duplicateOrder)", async () => {
    const { client: c } = await portal.researcher();
    const first = await startForm(c);
    const placed = await saveDetailsAndPlace(c, first, "Drought and soil bacteria");
    expect(placed.order.externalId).toBeTruthy();
    const second = await startForm(c);
    const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
    await send(c, "PUT", `/api/order-form/${second}/details`, {
      projectTitle: "Drought and soil bacteria",
      areaOfStudyId: area,
      styleOfEnglish: "american",
    });
    const form = (await (await c.get(`/api/order-form/${second}/load`)).json()).orderForm;
    expect(form.duplicateOrder).toEqual({
      externalId: placed.order.externalId,
      title: "Drought and soil bacteria",
      date: expect.any(String),
    });
  });
});

describe("GET /api/order/{id}/payment (spec 2 §7)", () => {
  it("answers the order and what is due to its owner and staff, 404 to another researcher, 401 to a visitor", async () => {
    const ada = await portal.researcher();
    const { order, invoice } = await createInvoice(portal.ctx, ada, { projectTitle: "Glacier retreat" });
    const boleto = await pendingBoleto(portal.ctx, ada.id, [invoice.number]);
    const path = `/api/order/${order.externalId}/payment`;

    const r = await ada.client.get(path);
    expect(r.status).toBe(200);
    const body = (await r.json()).order;
    expect(body).toMatchObject({
      externalId: order.externalId,
      title: "Glacier retreat",
      status: "placed",
      paid: false,
      completed: false,
      freeOrder: false,
      currency: { isoCode: "USD" },
      receiptCode: invoice.number,
      amountDue: Number(invoice.balance),
      invoice: { number: invoice.number, balance: Number(invoice.balance) },
      pendingPayments: [{ id: boleto, paymentMethodId: PAYMENT_METHOD.boleto, boletoUrl: `/api/payment/${boleto}/boleto.pdf` }],
    });
    expect(body.amountDue).toBeGreaterThan(0);
    expect(body.lineItems[0]).toMatchObject({ serviceIdentity: expect.any(String), totalPrice: expect.any(Number) });
    expect(isKey(body.lineItems[0].name)).toBe(false);
    expect(body).not.toHaveProperty("id");

    const bob = await portal.researcher();
    expect((await bob.client.get(path)).status).toBe(404);
    expect((await new Client(portal.url).get(path)).status).toBe(401);
    expect((await ada.client.get("/api/order/NOSUCHORDER1/payment")).status).toBe(404);
    const staff = await portal.staff();
    const asStaff = await staff.client.get(path);
    expect(asStaff.status).toBe(200);
    expect((await asStaff.json()).order.externalId).toBe(order.externalId);
  });
});

describe("GET /api/invoice/load under spec 2 §3's names", () => {
  it("gives each invoice transactionDate, usdBalance, exchangeRate, boletoUrl, receiptCode, payments and customFields.Submission", async () => {
    const ada = await portal.researcher();
    const usd = await createInvoice(portal.ctx, ada, { projectTitle: "Coral reefs" });
    const part = await recordProviderPayment(portal.ctx, usd.invoice.number, {
      amount: 1000,
      methodId: PAYMENT_METHOD.creditCard,
      sandbox: true,
    });
    const boleto = await pendingBoleto(portal.ctx, ada.id, [usd.invoice.number]);
    const eur = await createInvoice(portal.ctx, ada, { projectTitle: "Alpine lakes", currencyIso: "EUR" });

    const body = await (await ada.client.get("/api/invoice/load")).json();
    const one = body.invoices.find((i: { invoiceNumber: string }) => i.invoiceNumber === usd.invoice.number);
    expect(one).toMatchObject({
      transactionDate: new Date(usd.invoice.created_at).toISOString(),
      balance: Number(usd.invoice.balance) - 1000,
      usdBalance: Number(usd.invoice.balance) - 1000,
      totalAmount: Number(usd.invoice.amount),
      boletoUrl: `/api/payment/${boleto}/boleto.pdf`,
      receiptCode: usd.invoice.number,
      payments: [{ id: part.ledgerId, amount: 1000, retainerinvoice_id: null }],
      customFields: { Submission: usd.order.externalId },
      // The names existing clients read stay.
      orderNumber: usd.order.externalId,
      createdAt: new Date(usd.invoice.created_at).toISOString(),
    });
    const inEuro = body.invoices.find((i: { invoiceNumber: string }) => i.invoiceNumber === eur.invoice.number);
    expect(inEuro.exchangeRate).toBeTruthy();
    expect(inEuro.usdBalance).toBe(
      convertMinor(Number(eur.invoice.balance), { isoCode: "EUR", numDecimals: 2, rate: inEuro.exchangeRate }, USD),
    );
    expect(inEuro.usdBalance).not.toBe(inEuro.balance);
    expect(inEuro.boletoUrl).toBeNull();
  });

  it("names the prepayment a balance spend came from (payments[].retainerinvoice_id)", async () => {
    const ada = await portal.researcher();
    const retainer = await seedPrepayment(portal.ctx, ada.id, 5000);
    const form = await createOrderFormFor(portal.ctx, ada, { services: ["standard-editing"], projectTitle: "Prepaid in part" });
    const paid = await payOrderForm(
      scopeFor(portal.ctx, ada),
      form,
      paymentSubmission(PAYMENT_METHOD.creditCard, {
        nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`,
        prepayOption: "partialPayment",
        prepayAmount: "20",
      }),
      randomUUID(),
    );
    expect(paid.ok).toBe(true);
    const body = await (await ada.client.get("/api/invoice/load")).json();
    const payments = body.invoices[0].payments as { amount: number; retainerinvoice_id: string | null }[];
    expect(payments).toContainEqual(expect.objectContaining({ amount: 2000, retainerinvoice_id: retainer }));
    expect(payments.filter((p) => p.retainerinvoice_id === null)).toHaveLength(1);
  });
});

describe("the journal name is capped as the pages cap it", () => {
  it("refuses a name over 255 characters with a field error (PUT …/journal and …/details), keeps one of 255", async () => {
    const { client: c } = await portal.researcher();
    const id = await startForm(c);
    let r = await send(c, "PUT", `/api/order-form/${id}/journal`, { name: "J".repeat(600), url: "https://journal.example.org" });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toEqual({ name: "journal-name-too-long" });
    let form = (await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm;
    expect(form.journal).toBeNull();

    r = await send(c, "PUT", `/api/order-form/${id}/journal`, { name: "J".repeat(255) });
    expect(r.status).toBe(200);
    expect((await r.json()).orderForm.journal).toEqual({ name: "J".repeat(255) });

    const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
    r = await send(c, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: "Long journal",
      areaOfStudyId: area,
      styleOfEnglish: "american",
      journal: { name: "K".repeat(600) },
    });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toMatchObject({ journalName: "journal-name-too-long" });
    form = (await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm;
    expect(form.journal).toEqual({ name: "J".repeat(255) });
  });

  it("shows the page's field error without JavaScript", async () => {
    const { client: c } = await portal.researcher();
    const id = await startForm(c);
    const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
    await c.post("/en/researcher/submit/additional-services", { intent: "next" });
    expect((await c.get("/en/researcher/submit/details")).status).toBe(200);
    const r = await c.post("/en/researcher/submit/details", {
      projectTitle: "Long journal",
      areaOfStudyId: String(area),
      styleOfEnglish: "american",
      journalName: "K".repeat(600),
      journalUrl: "",
    });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("The journal&#x27;s name is too long (at most 255 characters).");
    expect(html).toContain('maxLength="255"');
    const form = (await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm;
    expect(form.journal).toBeNull();
  });
});

describe("leftovers (issue 22 item 8)", () => {
  async function viewingAs() {
    const staffUser = await createStaff(portal.ctx);
    const staff = await portal.signIn(staffUser);
    const ada = await createResearcher(portal.ctx);
    expect((await staff.post("/en/staff?index", { identity: ada.identity })).status).toBe(303);
    return { staff, staffUser, ada };
  }
  const stopRows = (staffId: number, identity: string) =>
    portal.ctx.db
      .selectFrom("audit_log")
      .select(["action", "data"])
      .where("actor_user_id", "=", staffId)
      .where("target_id", "=", identity)
      .where("action", "=", "impersonation.stop")
      .execute();

  it("writes the audit's stop row when staff sign out through the API while viewing as a researcher", async () => {
    const { staff, staffUser, ada } = await viewingAs();
    const r = await send(staff, "POST", "/api/auth/logout");
    expect(r.status).toBe(200);
    expect(await stopRows(staffUser.id, ada.identity)).toHaveLength(1);
    expect((await staff.get("/api/account")).status).toBe(401);
  });

  it("writes the audit's stop row when staff sign out on the page while viewing as a researcher", async () => {
    const { staff, staffUser, ada } = await viewingAs();
    const r = await staff.post("/en/logout", {});
    expect(r.status).toBe(303);
    expect(await stopRows(staffUser.id, ada.identity)).toHaveLength(1);
  });

  it("creates one draft for twenty concurrent GET /api/order-form/new of one researcher", async () => {
    const ada = await portal.researcher();
    const answers = await Promise.all(Array.from({ length: 20 }, () => ada.client.get("/api/order-form/new")));
    const ids = await Promise.all(answers.map(async (r) => (await r.json()).orderForm.identity as string));
    expect(new Set(ids).size).toBe(1);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    const drafts = await portal.ctx.db.selectFrom("order_forms").select("id").where("user_id", "=", ada.id).execute();
    expect(drafts).toHaveLength(1);
  });
});
