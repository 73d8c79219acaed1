// The order details page without JavaScript in each state, edit mode (POST → 303 → GET), the order edit API,
// the re-edit success page, and the support pages with the staff console (issue 11 §4).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { sendJson as send } from "../helpers/api";
import { createPlacedOrder, createStaff } from "../helpers/factories";
import { transitionOrder } from "../../server/orders/life";
import { addDeliverable } from "../../server/orders/deliverables";
import { issueCertificate } from "../../server/certificates";
import { encodeReworkSuccess } from "../../app/common/orders/edit";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const pdf = () => new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"));
const details = (ext: string, rest = "") => `/en/researcher/index/details/${ext}${rest}`;

async function orderId(ext: string) {
  return (await portal.ctx.db.selectFrom("orders").select("id").where("external_id", "=", ext).executeTakeFirstOrThrow()).id;
}
async function staffActor() {
  return { userId: (await createStaff(portal.ctx)).id };
}
async function start(ext: string) {
  expect((await transitionOrder(portal.ctx, await staffActor(), { externalId: ext }, "start")).ok).toBe(true);
}
async function complete(ext: string) {
  const actor = await staffActor();
  await addDeliverable(portal.ctx, actor, await orderId(ext), pdf(), "edited-manuscript.pdf");
  expect((await transitionOrder(portal.ctx, actor, { externalId: ext }, "complete")).ok).toBe(true);
}
async function pay(ext: string) {
  const id = await orderId(ext);
  await portal.ctx.db.updateTable("orders").set({ paid: true }).where("id", "=", id).execute();
  await portal.ctx.db.updateTable("invoices").set({ status: "paid", balance: 0 }).where("order_id", "=", id).execute();
}
function postForm(c: Client, path: string, pairs: [string, string][]) {
  return c.request(path, {
    method: "POST",
    body: new URLSearchParams(pairs),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

describe("the order details page without JavaScript", () => {
  let user: SignedInUser;
  let ext: string;
  beforeAll(async () => {
    user = await portal.researcher();
    ext = (await createPlacedOrder(portal.ctx, user)).externalId;
  });

  it("shows a placed order: sidebar, not-ready files, support link, Edit this order", async () => {
    const r = await user.client.get(details(ext));
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('class="details-sidebar');
    expect(html).toContain("Standard Editing");
    expect(html).toContain("manuscript.docx");
    expect(html).toContain('data-completion="not-ready"');
    expect(html).toContain("Your files are not ready yet.");
    expect(html).toContain(`href="/en/support/index/submission/${ext}"`);
    expect(html).toContain(`href="/en/researcher/index/details/${ext}?edit=1"`);
    expect(html).toContain("Edit this order");
    expect(html).not.toContain('id="certificate"');
    // Another researcher's order, an unknown status segment: not found.
    const other = await portal.researcher();
    expect((await other.client.get(details(ext))).status).toBe(404);
    expect((await user.client.get(details(ext, "/nonsense"))).status).toBe(404);
  });

  it("edits the style of English and the journal: POST → 303 → GET, and keeps errors on the page", async () => {
    let html = await (await user.client.get(details(ext, "?edit=1"))).text();
    expect(html).toContain("Save changes");
    expect(html).toContain('name="styleOfEnglish"');
    expect(html).toContain('name="journalName"');
    const version = /name="version" value="(\d+)"/.exec(html)![1];
    // A bad website: 400 with the message, the form still there.
    let r = await postForm(user.client, details(ext, "?edit=1"), [
      ["intent", "save"],
      ["version", version],
      ["services", "standard-editing"],
      ["styleOfEnglish", "british"],
      ["journalName", "Soil Biology"],
      ["journalUrl", "soil.example.org"],
    ]);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Your journal website must start with http:// or https://");
    r = await postForm(user.client, details(ext, "?edit=1"), [
      ["intent", "save"],
      ["version", version],
      ["services", "standard-editing"],
      ["styleOfEnglish", "british"],
      ["journalName", "Soil Biology"],
      ["journalUrl", "https://soil.example.org"],
    ]);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(details(ext, "?saved=1"));
    html = await (await user.client.get(details(ext, "?saved=1"))).text();
    expect(html).toContain("Your changes have been saved.");
    expect(html).toContain("British English");
    expect(html).toContain("Soil Biology");
    // The same (now stale) version again: a conflict, said plainly.
    r = await postForm(user.client, details(ext, "?edit=1"), [
      ["intent", "save"],
      ["version", version],
      ["styleOfEnglish", "american"],
    ]);
    expect(r.status).toBe(409);
    expect(await r.text()).toContain("This order was changed since you opened it.");
  });

  it("adds a service in edit mode with the deadline warning and 'Use this deadline'", async () => {
    const html = await (await user.client.get(details(ext, "?edit=1"))).text();
    const version = /name="version" value="(\d+)"/.exec(html)![1];
    const base: [string, string][] = [
      ["intent", "save"],
      ["version", version],
      ["services", "standard-editing"],
      ["services", "custom-illustration"],
      ["styleOfEnglish", "british"],
      ["journalName", "Soil Biology"],
      ["journalUrl", "https://soil.example.org"],
    ];
    let r = await postForm(user.client, details(ext, "?edit=1"), base);
    expect(r.status).toBe(409);
    const warned = await r.text();
    expect(warned).toContain("Use this deadline");
    const suggested = /name="deadline" value="([^"]+)"/.exec(warned)![1];
    r = await postForm(user.client, details(ext, "?edit=1"), [...base, ["deadline", suggested]]);
    expect(r.status).toBe(303);
    const page = await (await user.client.get(details(ext))).text();
    expect(page).toContain("Custom Illustration");
  });

  it("shows the questions of a service just ticked, with the journal it requires", async () => {
    const html = await (await user.client.get(details(ext, "?edit=1"))).text();
    expect(html).not.toContain('name="answers.reference-style"');
    const version = /name="version" value="(\d+)"/.exec(html)![1];
    const r = await postForm(user.client, details(ext, "?edit=1"), [
      ["intent", "save"],
      ["version", version],
      ["services", "standard-editing"],
      ["services", "custom-illustration"],
      ["services", "manuscript-formatting"],
      ["styleOfEnglish", "british"],
      ["journalName", ""],
      ["journalUrl", ""],
    ]);
    expect(r.status).toBe(400);
    const page = await r.text();
    expect(page).toContain('name="answers.reference-style"');
    expect(page).toContain("Which reference style should we use?");
    expect(page).toContain("You have selected a service that requires you to enter journal details.");
    expect(page).toContain("Value is required and can&#x27;t be empty");
  });

  it("shows an order in progress, then completed and unpaid (awaiting payment), then paid (Download All)", async () => {
    await start(ext);
    let html = await (await user.client.get(details(ext))).text();
    expect(html).toContain('data-status="in-progress"');
    expect(html).toContain('data-completion="not-ready"');

    await complete(ext);
    html = await (await user.client.get(details(ext))).text();
    expect(html).toContain('data-completion="awaiting-payment"');
    expect(html).toContain(`href="/en/support/index/submission/${ext}/type/proof-of-payment"`);
    expect(html).not.toContain(`/api/order/${ext}/deliverables`);
    expect(html).not.toContain("?edit=1");
    expect(html).toContain('id="certificate"');
    expect(html).toContain("Your certificate is not ready yet.");

    await pay(ext);
    html = await (await user.client.get(details(ext))).text();
    expect(html).toContain('data-completion="ready"');
    expect(html).toContain(`href="/api/order/${ext}/deliverables.zip"`);
    expect(html).toContain("Download All Files");
    expect(html).toMatch(new RegExp(`href="/api/order/${ext}/deliverables/[A-Za-z0-9_-]+"[^>]*>edited-manuscript.pdf`));
    expect(html).toContain(`href="/en/researcher/index/re-edit/${ext}"`);
    // Once issued, the certificate's panel (code, title and authors form posting to the certificates area).
    const issued = await issueCertificate(portal.ctx, await staffActor(), await orderId(ext));
    if (!issued.ok) throw new Error(issued.error);
    html = await (await user.client.get(details(ext))).text();
    expect(html).toContain('id="certificate"');
    expect(html).toContain("data-certificate-code");
    expect(html).toContain(`action="/en/certificate/edit/${issued.value.code}"`);
    // Edit mode is gone once completed.
    expect(await (await user.client.get(details(ext, "?edit=1"))).text()).not.toContain('name="version"');
  });

  it("shows the thank-you view with the payment and the notification e-mails form", async () => {
    const placed = await createPlacedOrder(portal.ctx, user);
    let html = await (await user.client.get(details(placed.externalId, "/thank-you"))).text();
    expect(html).toContain("Thank you for your order");
    expect(html).toContain(`Please pay invoice ${placed.invoiceNumber}`);
    expect(html).toContain('name="notificationEmails"');
    let r = await user.client.post(details(placed.externalId, "/thank-you"), {
      intent: "notification-emails",
      notificationEmails: "co@example.org, not-an-address",
    });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please enter valid e-mail addresses, separated by commas.");
    r = await user.client.post(details(placed.externalId, "/thank-you"), {
      intent: "notification-emails",
      notificationEmails: "co@example.org, lab@example.org",
    });
    expect(r.status).toBe(303);
    html = await (await user.client.get(r.headers.get("location")!)).text();
    expect(html).toContain("Thank you for the additional information regarding your order.");
    expect(html).toContain('value="co@example.org, lab@example.org"');

    // A payment a provider has still to confirm (a pending payment of the invoice): the page refreshes itself
    // without JavaScript, counting its tries, links the payment's page, and gives up after 80 with 'load-order-failure'.
    const payment = await portal.ctx.db
      .insertInto("payments")
      .values({
        user_id: user.id,
        purpose: "invoices",
        invoice_numbers: JSON.stringify([placed.invoiceNumber]),
        method_id: 19,
        provider: "alipay",
        status: "pending",
        amount: 15000,
        currency_iso: "USD",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    html = await (await user.client.get(details(placed.externalId, "/thank-you"))).text();
    expect(html).toContain('<meta http-equiv="refresh" content="3;url=?poll=1"/>');
    expect(html).toContain(`/en/researcher/payment/${payment.id}`);
    html = await (await user.client.get(details(placed.externalId, "/thank-you?poll=80"))).text();
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain("We could not confirm your payment yet.");
  });
});

describe("the order edit API", () => {
  it("answers services, save, e-mail notifications and service details; another user's order is 404", async () => {
    const user = await portal.researcher();
    const other = await portal.researcher();
    const ext = (await createPlacedOrder(portal.ctx, user)).externalId;
    let r = await user.client.get(`/api/order/${ext}/services`);
    expect(r.status).toBe(200);
    const services = await r.json();
    expect(services.serviceOptions.find((o: { serviceSlug: string }) => o.serviceSlug === "standard-editing")).toMatchObject({
      onOrder: true,
      canBeRemovedFromOrder: false,
      name: "Standard Editing",
    });
    expect((await other.client.get(`/api/order/${ext}/services`)).status).toBe(404);

    r = await send(user.client, "PUT", `/api/order/${ext}/save`, {
      version: services.version,
      styleOfEnglish: "british",
      journal: { name: "Soil Biology", url: "https://soil.example.org" },
    });
    expect(r.status).toBe(200);
    const saved = (await r.json()).orderDetails;
    expect(saved).toMatchObject({ externalId: ext, version: services.version + 1 });
    r = await send(user.client, "PUT", `/api/order/${ext}/save`, { version: services.version, styleOfEnglish: "american" });
    expect(r.status).toBe(409);
    expect((await r.json()).error).toBe("conflict");
    r = await send(user.client, "PUT", `/api/order/${ext}/save`, { version: saved.version, journal: { name: "X", url: "ftp://x" } });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toEqual({ journalUrl: "journal-url-invalid" });
    r = await send(user.client, "PUT", `/api/order/${ext}/save`, {
      version: saved.version,
      services: ["standard-editing", "custom-illustration"],
    });
    expect(r.status).toBe(409);
    const mismatch = await r.json();
    expect(mismatch).toMatchObject({ error: "deadline-mismatch" });
    expect(mismatch.suggestedDeadline).toMatch(/^\d{4}-\d\d-\d\dT/);
    r = await send(user.client, "PUT", `/api/order/${ext}/save`, {
      version: saved.version,
      services: ["standard-editing", "custom-illustration"],
      deadline: mismatch.suggestedDeadline,
    });
    expect(r.status).toBe(200);
    expect((await r.json()).orderDetails.deadline).toBe(mismatch.suggestedDeadline);
    expect((await send(other.client, "PUT", `/api/order/${ext}/save`, { styleOfEnglish: "british" })).status).toBe(404);
    expect((await send(new Client(portal.url), "PUT", `/api/order/${ext}/save`, { styleOfEnglish: "british" })).status).toBe(401);

    r = await send(user.client, "POST", `/api/order/${ext}/email-notifications`, { notificationEmails: "a@example.org,b@example.org" });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      notificationEmails: ["a@example.org", "b@example.org"],
      message: "Thank you for the additional information regarding your order.",
    });
    r = await send(user.client, "POST", `/api/order/${ext}/email-notifications`, { notificationEmails: "nope" });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toEqual({ notificationEmails: "notification-email-invalid" });
    expect((await send(other.client, "POST", `/api/order/${ext}/email-notifications`, { notificationEmails: "" })).status).toBe(404);

    r = await user.client.get("/api/service-details?serviceIdentities=manuscript-formatting,standard-editing");
    expect(r.status).toBe(200);
    const d = await r.json();
    expect(d.journalDetails).toEqual({ required: true, requested: true });
    expect(d.questions[0]).toMatchObject({ label: "reference-style", required: true, text: "Which reference style should we use?" });
    expect(d.questionsRequiringPreviousSelection[0]).toMatchObject({ label: "reference-style-other", displayed: false });
  });
});

describe("re-edit success", () => {
  it("lists the files of a good payload and answers a bad one with a 400 page", async () => {
    const user = await portal.researcher();
    const ext = (await createPlacedOrder(portal.ctx, user)).externalId;
    const data = encodeReworkSuccess({ files: [{ identity: "f1", name: "revised-manuscript.docx" }] });
    let r = await user.client.get(details(ext, `/rework-success/${data}`));
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain("revised-manuscript.docx");
    expect(html).toContain("Re-edit requested");
    for (const bad of ["not!base64", "bm90IGpzb24", encodeReworkSuccess({ files: "x" } as never)]) {
      r = await user.client.get(details(ext, `/rework-success/${bad}`));
      expect(r.status).toBe(400);
      expect(await r.text()).toContain("The re-edit confirmation link is damaged.");
    }
  });
});

describe("support", () => {
  it("takes messages from visitors and researchers, a proof of payment with a file, and shows them to staff only", async () => {
    const visitor = new Client(portal.url);
    let r = await visitor.get("/en/support");
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('name="email"');
    r = await visitor.post("/en/support", { email: "", message: "Hello" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please enter your e-mail address.");
    r = await visitor.post("/en/support", { email: "visitor@example.org", message: "Do you edit theses?" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/en/support?sent=1");
    expect(await (await visitor.get("/en/support?sent=1")).text()).toContain("Message sent");

    const user = await portal.researcher();
    const ext = (await createPlacedOrder(portal.ctx, user)).externalId;
    const html = await (await user.client.get(`/en/support/index/submission/${ext}`)).text();
    expect(html).toContain(`value="${user.email}"`);
    expect(html).toContain(ext);
    const other = await portal.researcher();
    expect((await other.client.get(`/en/support/index/submission/${ext}`)).status).toBe(404);
    expect((await user.client.get(`/en/support/index/submission/${ext}/type/other`)).status).toBe(404);
    expect((await visitor.get(`/en/support/index/submission/${ext}`)).status).toBe(302);

    // Proof of payment: a multipart form with the file, through the file store's checks.
    const path = `/en/support/index/submission/${ext}/type/proof-of-payment`;
    let fd = new FormData();
    fd.append("message", "Paid by bank transfer on Monday.");
    r = await user.client.request(path, { method: "POST", body: fd });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please attach your proof of payment.");
    fd = new FormData();
    fd.append("message", "Paid.");
    fd.append("proof", new Blob([new Uint8Array(Buffer.from("MZ\x90\x00 not a receipt"))]), "receipt.exe");
    r = await user.client.request(path, { method: "POST", body: fd });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("This type of file is not accepted.");
    fd = new FormData();
    fd.append("email", user.email);
    fd.append("message", "Paid by bank transfer on Monday.");
    fd.append("proof", new Blob([pdf()]), "receipt.pdf");
    r = await user.client.request(path, { method: "POST", body: fd });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`${path}?sent=1`);

    // Staff see it, open it, download the file and close it; a researcher is refused.
    expect((await user.client.get("/en/staff/support")).status).toBe(403);
    const staff = await portal.staff();
    let list = await (await staff.client.get("/en/staff/support")).text();
    expect(list).toContain("Support requests");
    expect(list).toContain(ext);
    expect(list).toContain("visitor@example.org");
    const row = await portal.ctx.db
      .selectFrom("support_requests")
      .select("id")
      .where("type", "=", "proof-of-payment")
      .executeTakeFirstOrThrow();
    const page = await (await staff.client.get(`/en/staff/support/${row.id}`)).text();
    expect(page).toContain("Paid by bank transfer on Monday.");
    expect(page).toContain("receipt.pdf");
    const reads = await portal.ctx.db.selectFrom("audit_log").select("target_id").where("action", "=", "support.read").execute();
    expect(reads.map((a) => a.target_id)).toContain(String(row.id));
    r = await staff.client.get(`/en/staff/support/${row.id}/file`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toContain("attachment");
    r = await staff.client.post(`/en/staff/support/${row.id}`, { intent: "close" });
    expect(r.status).toBe(303);
    list = await (await staff.client.get(`/en/staff/support/${row.id}`)).text();
    expect(list).toMatch(/data-support-status="[^"]*">Closed/);
    expect((await user.client.post(`/en/staff/support/${row.id}`, { intent: "close" })).status).toBe(403);
  });
});

describe("local-entity migration terms (spec 2 §7)", () => {
  it("records the acceptance through PUT /api/users/{id}/wfoe-tos-accepted; another user's id is 403", async () => {
    const user = await portal.researcher();
    const other = await portal.researcher();
    expect((await send(user.client, "PUT", `/api/users/${other.identity}/wfoe-tos-accepted`)).status).toBe(403);
    const r = await send(user.client, "PUT", `/api/users/${user.identity}/wfoe-tos-accepted`);
    expect(r.status).toBe(200);
    const row = await portal.ctx.db.selectFrom("users").select("wfoe_accepted_tos_at").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.wfoe_accepted_tos_at).not.toBeNull();
    expect((await send(new Client(portal.url), "PUT", `/api/users/${user.identity}/wfoe-tos-accepted`)).status).toBe(401);
  });
});
