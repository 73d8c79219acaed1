// Order details (issue 11 §4): editing a placed order (services, deadline, invoice, paid orders, versions,
// style of English, journal, service questions), extra notification e-mails, re-edit rules and support requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createPlacedOrder, createResearcher, createStaff, scopeFor, type TestUser } from "../helpers/factories";
import { orderServiceOptions, saveNotificationEmails, saveOrderDetails } from "../../server/orders/edit";
import { orderHistory, transitionOrder } from "../../server/orders/life";
import { addDeliverable } from "../../server/orders/deliverables";
import { reworkableOrder } from "../../server/order-form/rework";
import { closeSupportRequest, createSupportRequest, listSupportRequests } from "../../server/support";
import { serviceDetails, checkAnswers } from "../../server/orders/service-details";
import { saveUpload } from "../../server/documents/storage";
import { systemScope } from "../../server/scope";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const pdf = () => new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"));

async function orderRow(externalId: string) {
  return t.ctx.db.selectFrom("orders").selectAll().where("external_id", "=", externalId).executeTakeFirstOrThrow();
}
async function invoiceOf(externalId: string) {
  const row = await orderRow(externalId);
  return t.ctx.db.selectFrom("invoices").selectAll().where("order_id", "=", row.id).executeTakeFirstOrThrow();
}
/** Completes an order as staff would: start, deliver a file, complete; `paid` settles its invoice. */
async function complete(externalId: string, { paid }: { paid: boolean }) {
  const staff = await createStaff(t.ctx);
  const row = await orderRow(externalId);
  await transitionOrder(t.ctx, { userId: staff.id }, { orderId: row.id }, "start");
  await addDeliverable(t.ctx, { userId: staff.id }, row.id, pdf(), "edited.pdf");
  await transitionOrder(t.ctx, { userId: staff.id }, { orderId: row.id }, "complete");
  if (paid) await markPaid(externalId);
}
async function markPaid(externalId: string) {
  const row = await orderRow(externalId);
  await t.ctx.db.updateTable("orders").set({ paid: true }).where("id", "=", row.id).execute();
  await t.ctx.db.updateTable("invoices").set({ status: "paid", balance: 0 }).where("order_id", "=", row.id).execute();
}

describe("editing an order", () => {
  let user: TestUser;
  let ext: string;
  beforeAll(async () => {
    user = await createResearcher(t.ctx);
    ext = (await createPlacedOrder(t.ctx, user)).externalId;
  });

  it("saves the style of English and the journal with the version read, and refuses a stale version", async () => {
    const scope = scopeFor(t.ctx, user);
    const before = await orderRow(ext);
    const r = await saveOrderDetails(scope, ext, {
      version: before.version,
      styleOfEnglish: "british",
      journalName: "Journal of Soil Biology",
      journalUrl: "https://soil.example.org",
    });
    expect(r.ok && r.value.changed.sort()).toEqual(["journal", "styleOfEnglish"]);
    const after = await orderRow(ext);
    expect(after.style_of_english).toBe("british");
    expect(after.journal).toEqual({ name: "Journal of Soil Biology", url: "https://soil.example.org" });
    expect(after.version).toBe(before.version + 1);
    const stale = await saveOrderDetails(scope, ext, { version: before.version, styleOfEnglish: "american" });
    expect(stale).toMatchObject({ ok: false, error: "conflict" });
    const history = await orderHistory(t.ctx.db, after.id);
    expect(history.at(-1)).toMatchObject({ event: "edited", from: "placed", to: "placed" });
    expect(history.at(-1)!.data).toMatchObject({ styleOfEnglish: { old: "american", new: "british" } });
  });

  it("checks the style of English and the journal rules", async () => {
    const scope = scopeFor(t.ctx, user);
    const version = (await orderRow(ext)).version;
    const bad = await saveOrderDetails(scope, ext, { version, styleOfEnglish: "australian", journalUrl: "ftp://x.org", journalName: "X" });
    expect(bad.ok ? {} : bad.fieldErrors).toEqual({
      styleOfEnglish: "details:errors.style-of-english-required",
      journalUrl: "details:errors.journal-url-invalid",
    });
    const cleared = await saveOrderDetails(scope, ext, { version, styleOfEnglish: "" });
    expect(!cleared.ok && cleared.fieldErrors.styleOfEnglish).toBe("details:errors.style-of-english-required");
    const tooLong = await saveOrderDetails(scope, ext, { version, journalName: "J", journalUrl: `https://x.org/${"a".repeat(250)}` });
    expect(!tooLong.ok && tooLong.fieldErrors.journalUrl).toBe("details:errors.journal-url-invalid");
    // A new journal with the old journal's website left as it was.
    const moved = await saveOrderDetails(scope, ext, { version, journalName: "Another Journal", journalUrl: "https://soil.example.org" });
    expect(!moved.ok && moved.fieldErrors.journalUrl).toBe("details:errors.journal-url-change");
  });

  it("adds a service: the deadline becomes the latest service deadline once accepted, the invoice follows the total", async () => {
    const scope = scopeFor(t.ctx, user);
    const options = await orderServiceOptions(scope, ext);
    if (!options.ok) throw new Error(options.error);
    const editing = options.value.options.find((o) => o.serviceSlug === "standard-editing")!;
    expect(editing).toMatchObject({ onOrder: true, canBeRemovedFromOrder: false });
    const illustration = options.value.options.find((o) => o.serviceSlug === "custom-illustration")!;
    expect(illustration).toMatchObject({ onOrder: false, addOn: true });
    expect(options.value.options.some((o) => o.serviceSlug === "figure-formatting")).toBe(false);
    const before = await orderRow(ext);
    const invoiceBefore = await invoiceOf(ext);

    // Custom illustration takes 10 business days, editing 7: the order's deadline would move.
    const services = ["standard-editing", "custom-illustration"];
    const first = await saveOrderDetails(scope, ext, { version: before.version, services });
    expect(first).toMatchObject({ ok: false, error: "deadline-mismatch" });
    const suggested = !first.ok ? (first.details?.suggestedDeadline as string) : "";
    expect(suggested).toBe(illustration.deadline);
    expect(new Date(suggested).getTime()).toBeGreaterThan(new Date(before.deadline!).getTime());
    expect((await orderRow(ext)).version).toBe(before.version);

    const saved = await saveOrderDetails(scope, ext, { version: before.version, services, deadline: suggested });
    if (!saved.ok) throw new Error(saved.error);
    const after = await orderRow(ext);
    expect(after.deadline!.toISOString()).toBe(suggested);
    expect(Number(after.total)).toBe(Number(before.total) + illustration.price);
    const invoice = await invoiceOf(ext);
    expect(Number(invoice.amount)).toBe(Number(invoiceBefore.amount) + illustration.price);
    expect(Number(invoice.balance)).toBe(Number(invoiceBefore.balance) + illustration.price);
    const history = await orderHistory(t.ctx.db, after.id);
    expect(history.at(-1)!.data).toMatchObject({
      services: { added: ["custom-illustration"], removed: [] },
      total: { old: Number(before.total), new: Number(after.total) },
      invoice: { number: invoice.number, amount: { old: Number(invoiceBefore.amount), new: Number(invoice.amount) } },
    });

    // The main service cannot be removed; the add-on can, and the deadline returns to the editing one.
    const noMain = await saveOrderDetails(scope, ext, { version: after.version, services: ["custom-illustration"] });
    expect(!noMain.ok && noMain.fieldErrors.services).toBe("details:errors.service-not-removable");
    const back = await saveOrderDetails(scope, ext, { version: after.version, services: ["standard-editing"] });
    const back2 =
      !back.ok && back.error === "deadline-mismatch"
        ? await saveOrderDetails(scope, ext, {
            version: after.version,
            services: ["standard-editing"],
            deadline: back.details?.suggestedDeadline,
          })
        : back;
    expect(back2.ok).toBe(true);
    expect(Number((await orderRow(ext)).total)).toBe(Number(before.total));
    expect(Number((await invoiceOf(ext)).balance)).toBe(Number(invoiceBefore.balance));
    // Unknown and not-addable services.
    const v = (await orderRow(ext)).version;
    expect(await saveOrderDetails(scope, ext, { version: v, services: ["standard-editing", "nope"] })).toMatchObject({
      fieldErrors: { services: "details:errors.service-unknown" },
    });
    expect(await saveOrderDetails(scope, ext, { version: v, services: ["standard-editing", "premium-editing"] })).toMatchObject({
      fieldErrors: { services: "details:errors.service-not-addable" },
    });
  });

  it("asks for the journal and the answers a service requires; hidden follow-up answers are cleared", async () => {
    const scope = scopeFor(t.ctx, user);
    const version = (await orderRow(ext)).version;
    const services = ["standard-editing", "manuscript-formatting"];
    const r = await saveOrderDetails(scope, ext, { version, services, journalName: "", journalUrl: "" });
    expect(!r.ok && r.fieldErrors).toEqual({
      journalName: "details:errors.journal-required",
      "answers.reference-style": "details:errors.value-required",
    });
    const followUp = await saveOrderDetails(scope, ext, {
      version,
      services,
      journalName: "Soil Journal",
      journalUrl: "",
      answers: { "reference-style": "other" },
    });
    expect(!followUp.ok && followUp.fieldErrors).toEqual({ "answers.reference-style-other": "details:errors.value-required" });
    let saved = await saveOrderDetails(scope, ext, {
      version,
      services,
      journalName: "Soil Journal",
      journalUrl: "",
      answers: { "reference-style": "apa", "reference-style-other": "Chicago" },
    });
    if (!saved.ok && saved.error === "deadline-mismatch")
      saved = await saveOrderDetails(scope, ext, {
        version,
        services,
        deadline: saved.details?.suggestedDeadline,
        journalName: "Soil Journal",
        journalUrl: "",
        answers: { "reference-style": "apa", "reference-style-other": "Chicago" },
      });
    expect(saved.ok).toBe(true);
    expect((await orderRow(ext)).service_answers).toEqual({ "reference-style": "apa" });
  });

  it("refuses a change of total on a paid order, and any change once completed; another user's order is not found", async () => {
    const other = await createResearcher(t.ctx);
    expect(await saveOrderDetails(scopeFor(t.ctx, other), ext, { styleOfEnglish: "british" })).toMatchObject({ error: "not-found" });
    expect(await orderServiceOptions(scopeFor(t.ctx, other), ext)).toMatchObject({ error: "not-found" });

    const paidUser = await createResearcher(t.ctx);
    const paid = (await createPlacedOrder(t.ctx, paidUser)).externalId;
    await markPaid(paid);
    const scope = scopeFor(t.ctx, paidUser);
    const version = (await orderRow(paid)).version;
    const add = await saveOrderDetails(scope, paid, {
      version,
      services: ["standard-editing", "plagiarism-check"],
      deadline: "2099-01-01T00:00:00Z",
    });
    expect(add.ok ? "" : add.error).toMatch(/^(order-paid|deadline-mismatch)$/);
    const options = await orderServiceOptions(scope, paid);
    const check = options.ok ? options.value.options.find((o) => o.serviceSlug === "plagiarism-check") : undefined;
    const accepted = await saveOrderDetails(scope, paid, {
      version,
      services: ["standard-editing", "plagiarism-check"],
      deadline: add.ok ? undefined : (add.details?.suggestedDeadline ?? check?.deadline),
    });
    expect(accepted).toMatchObject({ ok: false, error: "order-paid" });
    expect((await saveOrderDetails(scope, paid, { version, styleOfEnglish: "british" })).ok).toBe(true);

    await complete(paid, { paid: true });
    expect(await saveOrderDetails(scope, paid, { styleOfEnglish: "american" })).toMatchObject({ error: "order-not-editable" });
  });
});

describe("service details", () => {
  it("lists file types, the journal rules and the questions of the services", async () => {
    const d = await serviceDetails(t.ctx, ["manuscript-formatting", "standard-editing"]);
    expect(d.journalDetails).toEqual({ required: true, requested: true });
    expect(d.fileTypes).toContain("docx");
    expect(d.questions.map((q) => q.label)).toEqual(["reference-style"]);
    expect(d.questionsRequiringPreviousSelection.map((q) => [q.label, q.displayed])).toEqual([["reference-style-other", false]]);
    expect((await serviceDetails(t.ctx, ["scientific-editing"])).journalDetails).toEqual({ required: false, requested: false });
    expect(checkAnswers(d, { "reference-style": "mla" }).errors).toEqual({ "reference-style": "details:errors.answer-invalid" });
  });
});

describe("notification e-mails", () => {
  it("keeps up to five valid, comma-separated addresses of the user's own order", async () => {
    const user = await createResearcher(t.ctx);
    const ext = (await createPlacedOrder(t.ctx, user)).externalId;
    const scope = scopeFor(t.ctx, user);
    const r = await saveNotificationEmails(scope, ext, " a@example.org, b@example.org,,A@example.org ");
    expect(r.ok && r.value.notificationEmails).toEqual(["a@example.org", "b@example.org"]);
    expect((await orderRow(ext)).notification_emails).toEqual(["a@example.org", "b@example.org"]);
    expect(await saveNotificationEmails(scope, ext, "a@example.org, not-an-address")).toMatchObject({
      fieldErrors: { notificationEmails: "details:errors.notification-email-invalid" },
    });
    expect(await saveNotificationEmails(scope, ext, [1, 2, 3, 4, 5, 6].map((i) => `p${i}@example.org`).join(","))).toMatchObject({
      fieldErrors: { notificationEmails: "details:errors.notification-emails-too-many" },
    });
    const other = await createResearcher(t.ctx);
    expect(await saveNotificationEmails(scopeFor(t.ctx, other), ext, "x@example.org")).toMatchObject({ error: "not-found" });
  });
});

describe("re-edit rules", () => {
  it("offers a re-edit only for a completed, downloadable order without figures or formatting (unless staff view as the user)", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const ext = (await createPlacedOrder(t.ctx, user)).externalId;
    expect(await reworkableOrder(scope, ext)).toBeNull();
    await complete(ext, { paid: false });
    expect(await reworkableOrder(scope, ext)).toBeNull();
    await markPaid(ext);
    expect(await reworkableOrder(scope, ext)).toMatchObject({ externalId: ext, serviceSlugs: ["standard-editing"] });
    expect(await reworkableOrder(scopeFor(t.ctx, await createResearcher(t.ctx)), ext)).toBeNull();

    // Manuscript formatting added while the order was placed (the factory's wizard path leaves add-ons out).
    const formatted = (await createPlacedOrder(t.ctx, user)).externalId;
    const edit = {
      version: (await orderRow(formatted)).version,
      services: ["standard-editing", "manuscript-formatting"],
      journalName: "Soil Journal",
      answers: { "reference-style": "journal" },
    };
    const first = await saveOrderDetails(scope, formatted, edit);
    if (!first.ok)
      expect((await saveOrderDetails(scope, formatted, { ...edit, deadline: first.details?.suggestedDeadline })).ok).toBe(true);
    await complete(formatted, { paid: true });
    expect(await reworkableOrder(scope, formatted)).toBeNull();
    const staff = await createStaff(t.ctx);
    expect(await reworkableOrder({ ...scope, impersonatorId: staff.id }, formatted)).not.toBeNull();
  });
});

describe("support requests", () => {
  it("creates requests from visitors and users about their own orders; staff list and close them", async () => {
    const user = await createResearcher(t.ctx);
    const ext = (await createPlacedOrder(t.ctx, user)).externalId;
    const scope = scopeFor(t.ctx, user);
    const visitor = systemScope(t.ctx, { lang: "en", localization: "US", ip: "10.9.8.7" });

    expect(await createSupportRequest(visitor, { type: "general", message: "Hello" })).toMatchObject({
      fieldErrors: { email: "support:errors.email-required" },
    });
    expect(await createSupportRequest(visitor, { type: "general", email: "visitor@example.org", message: "" })).toMatchObject({
      fieldErrors: { message: "support:errors.message-required" },
    });
    expect(await createSupportRequest(visitor, { type: "general", email: "v@example.org", message: "x".repeat(5001) })).toMatchObject({
      fieldErrors: { message: "support:errors.message-too-long" },
    });
    const anon = await createSupportRequest(visitor, { type: "general", email: "visitor@example.org", message: "How do I pay?" });
    expect(anon.ok).toBe(true);

    // About an order: only one's own; proof of payment needs a file.
    const other = await createResearcher(t.ctx);
    expect(await createSupportRequest(scopeFor(t.ctx, other), { type: "general", orderRef: ext, message: "Mine?" })).toMatchObject({
      error: "not-found",
    });
    expect(await createSupportRequest(visitor, { type: "proof-of-payment", orderRef: ext, message: "Paid" })).toMatchObject({
      error: "not-found",
    });
    expect(await createSupportRequest(scope, { type: "proof-of-payment", orderRef: ext, message: "Paid" })).toMatchObject({
      fieldErrors: { file: "support:errors.file-required" },
    });
    const file = await saveUpload(t.ctx, pdf(), { kind: "support", ownerUserId: user.id, originalName: "receipt.pdf", analyse: false });
    const proof = await createSupportRequest(scope, { type: "proof-of-payment", orderRef: ext, message: "Paid on Monday" }, file.id);
    if (!proof.ok) throw new Error(proof.error);

    const open = await listSupportRequests(t.ctx, { status: "open" });
    const mine = open.find((r) => r.id === proof.value.id)!;
    expect(mine).toMatchObject({
      type: "proof-of-payment",
      email: user.email,
      order: { externalId: ext },
      file: { name: "receipt.pdf" },
      user: { id: user.id },
    });
    const staff = await createStaff(t.ctx);
    expect((await closeSupportRequest(t.ctx, { userId: staff.id }, proof.value.id)).ok).toBe(true);
    expect((await closeSupportRequest(t.ctx, { userId: staff.id }, proof.value.id)).ok).toBe(false);
    expect((await listSupportRequests(t.ctx, { id: proof.value.id }))[0]).toMatchObject({ status: "closed", closedBy: staff.email });
    const audit = await t.ctx.db.selectFrom("audit_log").selectAll().where("action", "=", "support.close").execute();
    expect(audit.some((a) => a.target_id === proof.value.id && a.actor_user_id === staff.id)).toBe(true);
  });

  it("limits how many requests one writer sends per hour", async () => {
    const visitor = systemScope(t.ctx, { lang: "en", localization: "US", ip: "10.77.0.1" });
    const results = [];
    for (let i = 0; i < 6; i++)
      results.push(await createSupportRequest(visitor, { type: "general", email: "busy@example.org", message: `Message ${i}` }));
    expect(results.slice(0, 5).every((r) => r.ok)).toBe(true);
    expect(results[5]).toMatchObject({ ok: false, error: "too-many-requests" });
  });
});
