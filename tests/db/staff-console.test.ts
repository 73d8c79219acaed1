// The staff operations console's domain (issue 11 §2): bank-transfer payments recorded against an invoice
// (idempotent by the bank's reference, never below zero, the order paid at zero), orders staff create for a
// researcher with the admin options of spec 2 §6, and the order search.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createPlacedOrder, createResearcher, createStaff, scopeFor, type TestUser } from "../helpers/factories";
import { readSession } from "../../server/accounts/session";
import { systemScope, type Scope } from "../../server/scope";
import { notifyHistory, orderHistory } from "../../server/orders/life";
import { recordBankPayment } from "../../server/billing";
import { parseMajor } from "#common/money";
import { createAdminOrder } from "../../server/staff/admin-orders";
import {
  searchStaffOrders,
  staffOrderPage,
  staffRecordPayment,
  staffSetOverrideDownload,
  staffTransition,
} from "../../server/staff/orders";
import type { AdminOrderForm } from "../../app/common/staff/console";

let t: TestContext;
let staff: TestUser;
let staffScope: Scope;
beforeAll(async () => {
  t = await createTestContext();
  staff = await createStaff(t.ctx);
  staffScope = systemScope(t.ctx, {
    userId: staff.id,
    lang: "en",
    localization: "US",
    session: await readSession(t.ctx.db, staff.token),
  });
});
afterAll(async () => t.close());

const today = () => new Date().toISOString().slice(0, 10);
const invoiceRow = (n: string) => t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", n).executeTakeFirstOrThrow();
const orderRow = (x: string) => t.ctx.db.selectFrom("orders").selectAll().where("external_id", "=", x).executeTakeFirstOrThrow();

describe("recordBankPayment", () => {
  it("converts major units exactly with the currency's decimals", () => {
    expect(parseMajor("12.5", 2)).toBe(1250);
    expect(parseMajor("12,05", 2)).toBe(1205);
    expect(parseMajor("1000", 0)).toBe(1000);
    expect(parseMajor("10.5", 0)).toBeNull();
    expect(parseMajor("1.234", 2)).toBeNull();
    expect(parseMajor("0", 2)).toBeNull();
    expect(parseMajor("-3", 2)).toBeNull();
    expect(parseMajor("1e3", 2)).toBeNull();
  });

  it("takes partial payments, refuses an overpayment and pays the order at zero", async () => {
    const user = await createResearcher(t.ctx);
    const { order, invoice } = await createInvoice(t.ctx, user);
    const total = Number(invoice.amount);
    expect(total).toBeGreaterThan(200);
    const actor = { userId: staff.id };
    const part = await recordBankPayment(t.ctx, actor, invoice.number, { amount: "1.00", reference: "BANK-1", receivedOn: today() });
    expect(part.ok && part.value).toMatchObject({ amount: 100, balance: total - 100, orderPaid: false, duplicate: false });
    expect((await invoiceRow(invoice.number)).status).toBe("unpaid");
    expect((await orderRow(order.externalId)).paid).toBe(false);

    const over = await recordBankPayment(t.ctx, actor, invoice.number, {
      amount: ((total - 100 + 1) / 100).toFixed(2),
      reference: "BANK-2",
      receivedOn: today(),
    });
    expect(!over.ok && over.fieldErrors).toEqual({ amount: "staffops:errors.amount-exceeds-balance" });
    expect(Number((await invoiceRow(invoice.number)).balance)).toBe(total - 100);

    const rest = await recordBankPayment(t.ctx, actor, invoice.number, {
      amount: ((total - 100) / 100).toFixed(2),
      reference: "BANK-2",
      receivedOn: today(),
    });
    expect(rest.ok && rest.value).toMatchObject({ balance: 0, invoiceStatus: "paid", orderPaid: true });
    expect((await invoiceRow(invoice.number)).status).toBe("paid");
    expect(Number((await invoiceRow(invoice.number)).balance)).toBe(0);
    expect((await orderRow(order.externalId)).paid).toBe(true);
    const payments = await t.ctx.db.selectFrom("invoice_payments").selectAll().where("invoice_number", "=", invoice.number).execute();
    expect(payments.map((p) => Number(p.amount))).toEqual([100, total - 100]);

    // Each payment has its history row and a mail job; the mail goes to the researcher.
    const row = await orderRow(order.externalId);
    const history = (await orderHistory(t.ctx.db, row.id)).filter((h) => h.event === "payment-recorded");
    expect(history).toHaveLength(2);
    expect(history[1].actor?.email).toBe(staff.email);
    expect(await notifyHistory(t.ctx, history[1].id)).toBe("sent");
    const mail = await t.ctx.db.selectFrom("mail_outbox").select(["to_email", "template"]).where("to_email", "=", user.email).execute();
    expect(mail.some((m) => m.template === "order-payment-recorded")).toBe(true);
  });

  it("is idempotent by the bank's reference: a repeat returns the first payment and credits nothing", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const actor = { userId: staff.id };
    const input = { amount: "2.00", reference: "TRX-77", receivedOn: today() };
    const [a, b] = await Promise.all([
      recordBankPayment(t.ctx, actor, invoice.number, input),
      recordBankPayment(t.ctx, actor, invoice.number, input),
    ]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.value.paymentId).toBe(b.value.paymentId);
    expect([a.value.duplicate, b.value.duplicate].sort()).toEqual([false, true]);
    const again = await recordBankPayment(t.ctx, actor, invoice.number, { ...input, reference: " TRX-77 " });
    expect(again.ok && again.value.duplicate).toBe(true);
    expect(Number((await invoiceRow(invoice.number)).balance)).toBe(Number(invoice.amount) - 200);
    const rows = await t.ctx.db.selectFrom("invoice_payments").select("id").where("invoice_number", "=", invoice.number).execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses bad input, unknown and void invoices", async () => {
    const actor = { userId: staff.id };
    const missing = await recordBankPayment(t.ctx, actor, "INV0", { amount: "1", reference: "X", receivedOn: today() });
    expect(!missing.ok && missing.error).toBe("not-found");
    const user = await createResearcher(t.ctx);
    const { order, invoice } = await createInvoice(t.ctx, user);
    const bad = await recordBankPayment(t.ctx, actor, invoice.number, { amount: "abc", reference: "", receivedOn: "2026-02-30" });
    expect(!bad.ok && bad.fieldErrors).toEqual({
      reference: "staffops:errors.reference-required",
      receivedOn: "staffops:errors.invalid-date",
    });
    const amount = await recordBankPayment(t.ctx, actor, invoice.number, { amount: "abc", reference: "R", receivedOn: today() });
    expect(!amount.ok && amount.fieldErrors).toEqual({ amount: "staffops:errors.invalid-amount" });
    expect((await staffTransition(staffScope, order.externalId, "cancel")).ok).toBe(true);
    const v = await recordBankPayment(t.ctx, actor, invoice.number, { amount: "1", reference: "R", receivedOn: today() });
    expect(!v.ok && v.error).toBe("invoice-void");
  });
});

describe("createAdminOrder", () => {
  const base = (email: string): AdminOrderForm => ({
    email,
    projectTitle: "Coral reef resilience",
    serviceSlugs: ["standard-editing"],
    wordCount: "2500",
    languageId: "1",
    areaOfStudyId: "",
    styleOfEnglish: "british",
    currencyIso: "USD",
    suppressInvoiceCreation: "yes",
    requireCustomerNotification: false,
  });
  let area = "";
  beforeAll(async () => {
    area = String((await t.ctx.db.selectFrom("areas_of_study").select("id").orderBy("id").executeTakeFirstOrThrow()).id);
  });

  it("places an admin order with no invoice and no 'order received' mail when both are off", async () => {
    const user = await createResearcher(t.ctx);
    const r = await createAdminOrder(staffScope, { ...base(user.email.toUpperCase()), areaOfStudyId: area, note: "Requested by phone" });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.value.invoiceNumber).toBeNull();
    const row = await orderRow(r.value.externalId);
    expect(row).toMatchObject({
      user_id: user.id,
      admin_created: true,
      suppress_invoice_creation: true,
      require_customer_notification: false,
      payment_method_id: 9,
      impersonator_id: staff.id,
      status: "placed",
      word_count: 2500,
    });
    expect(await t.ctx.db.selectFrom("invoices").select("number").where("order_id", "=", row.id).execute()).toEqual([]);
    const history = await orderHistory(t.ctx.db, row.id);
    expect(history.map((h) => h.event)).toEqual(["place", "staff-note"]);
    expect(history[1].note).toBe("Requested by phone");
    expect(await notifyHistory(t.ctx, history[0].id)).toBe("skipped");
    const mail = await t.ctx.db.selectFrom("mail_outbox").select("template").where("to_email", "=", user.email).execute();
    expect(mail.filter((m) => m.template === "order-place")).toEqual([]);
    // No draft of the staff member's making is left as the researcher's.
    const drafts = await t.ctx.db
      .selectFrom("order_forms")
      .select("id")
      .where("user_id", "=", user.id)
      .where("status", "=", "draft")
      .execute();
    expect(drafts).toEqual([]);
    const audit = await t.ctx.db.selectFrom("audit_log").select("action").where("target_id", "=", r.value.externalId).execute();
    expect(audit.map((a) => a.action)).toContain("staff.order.create");
  });

  it("issues the invoice and the mail when asked to", async () => {
    const user = await createResearcher(t.ctx);
    const r = await createAdminOrder(staffScope, {
      ...base(user.email),
      areaOfStudyId: area,
      suppressInvoiceCreation: "no",
      requireCustomerNotification: true,
    });
    expect(r.ok && r.value.invoiceNumber).toMatch(/^INV/);
    if (!r.ok) return;
    const row = await orderRow(r.value.externalId);
    expect(row.require_customer_notification).toBe(true);
    const [place] = await orderHistory(t.ctx.db, row.id);
    expect(await notifyHistory(t.ctx, place.id)).toBe("sent");
  });

  it("requires the invoice choice, a known researcher and services, and leaves nothing behind on refusal", async () => {
    const user = await createResearcher(t.ctx);
    const missing = await createAdminOrder(staffScope, { ...base(user.email), areaOfStudyId: area, suppressInvoiceCreation: undefined });
    expect(!missing.ok && missing.fieldErrors.suppressInvoiceCreation).toBe("staffops:errors.choose-invoice-option");
    const nobody = await createAdminOrder(staffScope, { ...base("nobody@example.org"), areaOfStudyId: area });
    expect(!nobody.ok && nobody.fieldErrors.email).toBe("staffops:errors.researcher-not-found");
    const staffTarget = await createAdminOrder(staffScope, { ...base(staff.email), areaOfStudyId: area });
    expect(!staffTarget.ok && staffTarget.fieldErrors.email).toBe("staffops:errors.researcher-not-found");
    const noArea = await createAdminOrder(staffScope, base(user.email));
    expect(!noArea.ok && noArea.fieldErrors.areaOfStudyId).toBeTruthy();
    const rework = await createAdminOrder(staffScope, { ...base(user.email), areaOfStudyId: area, serviceSlugs: ["touch-up-editing"] });
    expect(!rework.ok && rework.fieldErrors.serviceSlugs).toBe("staffops:errors.choose-services");
    const forms = await t.ctx.db.selectFrom("order_forms").select("id").where("user_id", "=", user.id).execute();
    expect(forms).toEqual([]);
    // A researcher (or staff viewing as one) cannot create admin orders.
    const researcherScope = { ...scopeFor(t.ctx, user), session: await readSession(t.ctx.db, user.token) };
    expect((await createAdminOrder(researcherScope, { ...base(user.email), areaOfStudyId: area })).ok).toBe(false);
  });
});

describe("the staff order search and page", () => {
  it("filters by number, title, e-mail, status and dates, and is staff only", async () => {
    const ada = await createResearcher(t.ctx, { firstName: "Ada" });
    const bob = await createResearcher(t.ctx);
    const a1 = await createPlacedOrder(t.ctx, ada, { projectTitle: "Zebrafish fins regrowth" });
    const a2 = await createPlacedOrder(t.ctx, ada, { projectTitle: "Lichen symbiosis" });
    const b1 = await createPlacedOrder(t.ctx, bob, { projectTitle: "Zebrafish hearts" });
    expect((await staffTransition(staffScope, a2.externalId, "start")).ok).toBe(true);

    const search = async (q: Parameters<typeof searchStaffOrders>[1]) => {
      const r = await searchStaffOrders(staffScope, q);
      if (!r.ok) throw new Error(r.error);
      return r.value.orders.map((o) => o.externalId);
    };
    expect(await search({ email: ada.email.toUpperCase() })).toEqual([a2.externalId, a1.externalId]);
    expect(await search({ number: a1.externalId })).toEqual([a1.externalId]);
    expect((await search({ title: "zebrafish" })).sort()).toEqual([a1.externalId, b1.externalId].sort());
    expect(await search({ email: ada.email, status: "in-progress" })).toEqual([a2.externalId]);
    expect(await search({ email: bob.email, from: today(), to: today() })).toEqual([b1.externalId]);
    expect(await search({ email: bob.email, to: "2000-01-01" })).toEqual([]);
    expect(await search({ title: "100%_" })).toEqual([]);
    const bad = await searchStaffOrders(staffScope, { from: "yesterday" });
    expect(!bad.ok && bad.fieldErrors.from).toBe("staffops:errors.invalid-date");
    const researcherScope = { ...scopeFor(t.ctx, ada), session: await readSession(t.ctx.db, ada.token) };
    expect((await searchStaffOrders(researcherScope, {})).ok).toBe(false);
    expect(await staffOrderPage(researcherScope, a1.externalId)).toBeNull();

    const page = await staffOrderPage(staffScope, a1.externalId);
    expect(page).toMatchObject({ researcher: { email: ada.email }, events: ["start", "cancel"] });
    expect(page!.order.invoice?.number).toBe(a1.invoiceNumber);
    expect(await staffOrderPage(staffScope, "RS0")).toBeNull();
  });

  it("records the download override in the history, and a payment through the order", async () => {
    const user = await createResearcher(t.ctx);
    const placed = await createPlacedOrder(t.ctx, user);
    expect((await staffSetOverrideDownload(staffScope, placed.externalId, true)).ok).toBe(true);
    const row = await orderRow(placed.externalId);
    expect(row.override_download_available).toBe(true);
    expect((await orderHistory(t.ctx.db, row.id)).at(-1)).toMatchObject({ event: "download-override", data: { on: true } });
    const r = await staffRecordPayment(staffScope, placed.externalId, { amount: "1", reference: "R-1", receivedOn: today() });
    expect(r.ok).toBe(true);
    const audit = await t.ctx.db.selectFrom("audit_log").select("action").where("actor_user_id", "=", staff.id).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["staff.order.download-override", "staff.invoice.payment"]));
  });
});
