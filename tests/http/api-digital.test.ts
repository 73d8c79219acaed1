// The digital editing and translation API over HTTP (spec 3 §7, issue 24, ADR 073): each endpoint with good and bad
// input and ANOTHER user's identity (404), visitors (401), the cross-site check, payments (key required, server-side
// amount, each path its own offers), the worker's results downloaded as streamed attachments, archived → 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { makeDocx, makePdf } from "../helpers/fixtures";
import { pdfText } from "../helpers/invoices";

let portal: TestPortal;
let docx: Uint8Array<ArrayBuffer>;

const TEXT =
  "The samples were recieved from three laboratories in the northern region. Each sample was stored at minus eighty degrees " +
  "until the the analysis began. Los resultados muestran que la concentración aumentó con la edad de los participantes.";

beforeAll(async () => {
  portal = await startRelaxedPortal();
  docx = new Uint8Array(await makeDocx(TEXT));
});
afterAll(async () => {
  await portal?.stop();
});

function form(field: string, files: { name: string; bytes: Uint8Array<ArrayBuffer> }[], fields: Record<string, string> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const f of files) body.append(field, new File([f.bytes], f.name));
  return body;
}

const post = (c: Client, path: string, body?: BodyInit, headers: Record<string, string> = {}) =>
  c.request(path, { method: "POST", body, headers });

const countryId = async (iso2: string) =>
  (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", iso2).executeTakeFirstOrThrow()).id;

async function payBody(offer: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    availableDigitalPurchaseIdentity: offer,
    paymentMethodId: 3,
    acceptedTermsAndConditions: true,
    creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
    billingAddress: {
      name: "Ana",
      address1: "1 Main St",
      city: "Durham",
      state: "NC",
      zip: "27701",
      country: { value: await countryId("US") },
    },
    ...extra,
  });
}
const pay = (c: Client, path: string, body: string, key: string | null = randomUUID()) =>
  post(c, path, body, { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) });

/** Polls a search until the item is no longer processing (the inline worker runs the job). */
async function settled(c: Client, path: string, id: string): Promise<{ status: string }> {
  for (let i = 0; i < 120; i++) {
    const r = await c.get(`${path}?identities=${id}`);
    const item = ((await r.json()) as { results: { identity: string; status: string }[] }).results[0];
    if (item && item.status !== "processing") return item;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error("still processing");
}

describe("digital editing API", () => {
  it("create needs a subscription or the trial; search, download (attachments), order form and archive are the owner's", async () => {
    const ana = await portal.researcher();
    const bob = await portal.researcher();
    const visitor = new Client(portal.url);
    expect((await visitor.get("/api/digital-edit/load")).status).toBe(401);

    const fields = { styleOfEnglish: "American English" };
    const refused = await post(ana.client, "/api/digital-edit/create", form("digitalEditFiles", [{ name: "m.docx", bytes: docx }], fields));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "subscription-required" });

    await portal.ctx.db.insertInto("digital_user_state").values({ user_id: ana.id, editing_trial: true }).execute();
    const load = await (await ana.client.get("/api/digital-edit/load")).json();
    expect(load).toMatchObject({ canUpload: true, digitalEditingTrial: true, hasDigitalEditingPurchase: false, displayType: "none" });
    expect(load.availableDigitalPurchases.map((o: { identity: string }) => o.identity)).toEqual(["editing-annual"]);

    const pdf = await post(
      ana.client,
      "/api/digital-edit/create",
      form("digitalEditFiles", [{ name: "f.pdf", bytes: new Uint8Array(await makePdf("x")) }], fields),
    );
    expect(pdf.status).toBe(400);
    expect(await pdf.json()).toEqual({ error: "filetype-not-allowed", params: { fileName: "f.pdf" } });
    const noStyle = await post(ana.client, "/api/digital-edit/create", form("digitalEditFiles", [{ name: "m.docx", bytes: docx }]));
    expect(noStyle.status).toBe(400);
    expect((await noStyle.json()).fieldErrors).toEqual({ styleOfEnglish: "style-of-english-required" });
    const crossSite = await post(
      ana.client,
      "/api/digital-edit/create",
      form("digitalEditFiles", [{ name: "m.docx", bytes: docx }], fields),
      {
        origin: "https://evil.example",
      },
    );
    expect(crossSite.status).toBe(403);

    const created = await post(ana.client, "/api/digital-edit/create", form("digitalEditFiles", [{ name: "m.docx", bytes: docx }], fields));
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { digitalEdits: { identity: string }[] }).digitalEdits[0].identity;
    expect((await settled(ana.client, "/api/digital-edit/search", id)).status).toBe("completed");

    for (const [path, name] of [
      [`/api/digital-edit/${id}/download`, "m (tracked).docx"],
      [`/api/digital-edit/${id}/lewis-version`, "m (edited).docx"],
    ]) {
      const r = await ana.client.get(path);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-disposition")).toContain(`attachment; filename="${name}"`);
      expect(r.headers.get("content-type")).toContain("wordprocessingml");
      const bytes = new Uint8Array(await r.arrayBuffer());
      expect(Number(r.headers.get("content-length"))).toBe(bytes.length);
      expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]); // a zip: the .docx
      expect((await bob.client.get(path)).status).toBe(404);
    }
    expect((await (await bob.client.get(`/api/digital-edit/search?identities=${id}`)).json()).results).toEqual([]);
    expect((await bob.client.get(`/api/order-form/from-digital-edit/${id}`)).status).toBe(404);
    expect((await post(bob.client, `/api/digital-edit/${id}/archive`)).status).toBe(404);
    expect((await ana.client.get("/api/digital-edit/search?page=0")).status).toBe(400);

    const order = await ana.client.get(`/api/order-form/from-digital-edit/${id}`);
    expect(order.status).toBe(200);
    expect(await order.json()).toMatchObject({ url: "/en/researcher/submit/get-started" });

    const archived = await post(ana.client, `/api/digital-edit/${id}/archive`);
    expect(await archived.json()).toEqual({ fileName: "m.docx" });
    expect((await ana.client.get(`/api/digital-edit/${id}/download`)).status).toBe(404);
    expect((await post(ana.client, `/api/digital-edit/${id}/archive`)).status).toBe(404);
    expect((await post(ana.client, "/api/digital-edit/not-a-uuid/archive")).status).toBe(404);
  });

  it("POST /api/digital-edit/payment: key required, its own offer only, the amount the server's; the purchase polls active", async () => {
    const ana = await portal.researcher();
    const missingKey = await pay(ana.client, "/api/digital-edit/payment", await payBody("editing-annual"), null);
    expect(missingKey.status).toBe(400);
    expect(await missingKey.json()).toMatchObject({ error: "idempotency-key-required" });
    expect((await pay(ana.client, "/api/digital-edit/payment", await payBody("one-use"))).status).toBe(404);
    const noTerms = await pay(
      ana.client,
      "/api/digital-edit/payment",
      await payBody("editing-annual", { acceptedTermsAndConditions: false }),
    );
    expect(noTerms.status).toBe(400);
    // A client-sent amount is ignored: the subscription costs what the server says.
    const r = await pay(ana.client, "/api/digital-edit/payment", await payBody("editing-annual", { amount: "1" }));
    expect(r.status).toBe(200);
    const answer = (await r.json()).payment;
    expect(answer.status).toBe("succeeded");
    expect(answer.redirectUrl).toMatch(/^\/en\/researcher\/digital-editing\/subscribe\/[A-Za-z0-9_-]+\/success$/);
    const receipt = answer.redirectUrl.split("/")[5];
    const polled = await (await ana.client.get(`/api/digital-purchase/${receipt}`)).json();
    expect(polled).toMatchObject({ active: true, valid: true, type: "editing", price: 14000, currencyIso: "USD" });
    const bob = await portal.researcher();
    expect((await bob.client.get(`/api/digital-purchase/${receipt}`)).status).toBe(404);
    // Its invoice (with the payment received on it) as a PDF: the owner's only.
    expect(polled.invoiceNumber).toMatch(/^DUS\d+$/);
    const pdf = await ana.client.get(`/api/digital-invoice/${polled.invoiceNumber}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const pdfBytes = Buffer.from(await pdf.arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString()).toBe("%PDF-");
    // One line naming the offer, and the payment received on it (the receipt).
    const text = await pdfText(pdfBytes);
    expect(text).toContain("Digitalediting,oneyear");
    expect(text).toContain(polled.invoiceNumber);
    expect((await bob.client.get(`/api/digital-invoice/${polled.invoiceNumber}/pdf`)).status).toBe(404);
    expect((await ana.client.get("/api/digital-invoice/PUS1/pdf")).status).toBe(404);
    // The editing page lists the purchase with a link to that invoice.
    const page = await (await ana.client.get("/en/researcher/digital-editing")).text();
    expect(page).toContain("Your purchases");
    expect(page).toContain(`href="/api/digital-invoice/${polled.invoiceNumber}/pdf"`);
    const load = await (await ana.client.get("/api/digital-edit/load")).json();
    expect(load).toMatchObject({ hasDigitalEditingPurchase: true, canUpload: true, displayType: "subscription-type" });
  });
});

describe("digital translation API", () => {
  it("create spends one use; the English document downloads as an attachment; another user's is 404", async () => {
    const ana = await portal.researcher();
    const bob = await portal.researcher();
    const create = (c: Client, language = "es_ES") =>
      post(c, "/api/digital-order/create", form("digitalTranslationFiles", [{ name: "t.docx", bytes: docx }], { language }));
    const none = await create(ana.client);
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ error: "no-uses-left", params: {} });

    expect((await pay(ana.client, "/api/digital-translation/payment", await payBody("editing-annual"))).status).toBe(404);
    expect((await pay(ana.client, "/api/digital-translation/payment", await payBody("one-use", { language: "xx_XX" }))).status).toBe(400);
    const bought = await pay(ana.client, "/api/digital-translation/payment", await payBody("one-use", { language: "es_ES" }));
    expect(bought.status).toBe(200);
    expect((await bought.json()).payment.redirectUrl).toMatch(/^\/en\/researcher\/digital-translations\/purchase\/[^/]+\/success$/);
    let load = await (await ana.client.get("/api/digital-order/load")).json();
    expect(load).toMatchObject({ numberOfUsesAvailable: 1, wordCountExceeded: false, displayType: "uses-type" });

    const noLanguage = await post(
      ana.client,
      "/api/digital-order/create",
      form("digitalTranslationFiles", [{ name: "t.docx", bytes: docx }]),
    );
    expect(noLanguage.status).toBe(400);
    expect((await noLanguage.json()).fieldErrors).toEqual({ language: "language-required" });
    const created = await create(ana.client);
    expect(created.status).toBe(201);
    const answer = (await created.json()) as { type: string; digitalOrders: { identity: string; status: string }[] };
    expect(answer.type).toBe("translation");
    const id = answer.digitalOrders[0].identity;
    load = await (await ana.client.get("/api/digital-order/load")).json();
    expect(load).toMatchObject({ numberOfUsesAvailable: 0, hasUploadedDigitalTranslation: true, displayType: "previous-uploads-type" });
    // The used-up package stays listed, with its invoice.
    expect(load.digitalPurchases).toEqual([
      expect.objectContaining({ numberOfUsesRemaining: 0, invoiceNumber: expect.stringMatching(/^DUS\d+$/) }),
    ]);
    const translationsPage = await (await ana.client.get("/en/researcher/digital-translations")).text();
    expect(translationsPage).toContain(`href="/api/digital-invoice/${load.digitalPurchases[0].invoiceNumber}/pdf"`);
    expect(translationsPage).toContain("0 uses left");
    expect((await create(ana.client)).status).toBe(400);

    expect((await settled(ana.client, "/api/digital-order/search", id)).status).toBe("completed");
    const file = await ana.client.get(`/api/digital-order/${id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain('attachment; filename="t (English).docx"');
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect((await bob.client.get(`/api/digital-order/${id}/download`)).status).toBe(404);
    expect((await post(bob.client, `/api/digital-order/${id}/archive`)).status).toBe(404);
    const list = await (await ana.client.get("/api/digital-order/search?type=translation")).json();
    expect(list.results.map((o: { identity: string }) => o.identity)).toEqual([id]);
    expect((await ana.client.get("/api/digital-order/search?type=other")).status).toBe(400);
    expect(await (await post(ana.client, `/api/digital-order/${id}/archive`)).json()).toEqual({ fileName: "t.docx" });
    expect((await ana.client.get(`/api/digital-order/${id}/download`)).status).toBe(404);
  });

  it("the Chinese trial: POST reports eligibility and changes nothing; grant is a separate call, once", async () => {
    const ana = await portal.researcher();
    expect(await (await post(ana.client, "/api/researcher/chinese-digital-trial")).json()).toEqual({ eligible: false });
    expect((await post(ana.client, "/api/researcher/chinese-digital-trial/grant")).status).toBe(409);
    const china = await countryId("CN");
    await portal.ctx.db.updateTable("users").set({ country_id: china }).where("id", "=", ana.id).execute();
    expect(await (await post(ana.client, "/api/researcher/chinese-digital-trial")).json()).toEqual({ eligible: true });
    expect(await (await post(ana.client, "/api/researcher/chinese-digital-trial")).json()).toEqual({ eligible: true });
    expect(await (await post(ana.client, "/api/researcher/chinese-digital-trial/grant")).json()).toEqual({ granted: true });
    expect(await (await post(ana.client, "/api/researcher/chinese-digital-trial")).json()).toEqual({ eligible: false });
    expect((await post(ana.client, "/api/researcher/chinese-digital-trial/grant")).status).toBe(409);
    expect((await post(new Client(portal.url), "/api/researcher/chinese-digital-trial")).status).toBe(401);
  });
});

describe("the editing trial flag", () => {
  it("staff set it (audited); a researcher may not; another staff account is not found", async () => {
    const ana = await portal.researcher();
    const staff = await portal.staff();
    const put = (c: Client, id: number, body: unknown) =>
      c.request(`/api/staff/users/${id}/digital-editing-trial`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await put(ana.client, ana.id, { enabled: true })).status).toBe(403);
    expect((await put(staff.client, ana.id, { enabled: "yes" })).status).toBe(400);
    expect((await put(staff.client, staff.id, { enabled: true })).status).toBe(404);
    const r = await put(staff.client, ana.id, { enabled: true });
    expect(await r.json()).toEqual({ digitalEditingTrial: true });
    expect(await (await ana.client.get("/api/digital-edit/load")).json()).toMatchObject({ digitalEditingTrial: true, canUpload: true });
    const audited = await portal.ctx.db
      .selectFrom("audit_log")
      .select(["actor_user_id", "action"])
      .where("target_id", "=", String(ana.id))
      .where("action", "=", "digital.editing-trial")
      .execute();
    expect(audited).toEqual([{ actor_user_id: staff.id, action: "digital.editing-trial" }]);
  });
});
