// Fapiao on a real database (issue 13 §4, ADR 042): a stored fapiao for a paid invoice of one's own in a
// localisation that processes fapiao after payment, one live fapiao per invoice, the staff's issue with a PDF, the
// cancellation window (refused past a year), organisation-name suggestions without other users' taxpayer numbers,
// US prepayments refused, and the order fapiao stored when the payment is made.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createCompletedOrder, createOrderFormFor, createResearcher, createStaff, scopeFor, type TestUser } from "../helpers/factories";
import { paymentSubmission } from "../helpers/payments";
import { systemScope, type Scope } from "../../server/scope";
import { PAYMENT_METHOD } from "#common/payments/methods";
import {
  cancelFapiao,
  createStoredFapiao,
  fapiaoPdf,
  listFapiaos,
  orderFapiaoState,
  organizationSuggestions,
  staffIssueFapiao,
} from "../../server/fapiao";
import { payOrderForm } from "../../server/orders/pay";
import { multipartBody, type MultipartBody } from "../../server/http/multipart";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const VALID = "91330100716105852F"; // Alibaba (China) Co., Ltd.
const BAD_CHECK = "91330100716105852G";
const PDF = "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";
const DAY = 24 * 3600 * 1000;

/** A researcher in China: country CN, so the CN localisation (which processes fapiao after payment). */
const chineseResearcher = () => createResearcher(t.ctx, { country: "CN", countryCode: "CN", phoneNumber: "13800138000", language: "cn" });
const cnScope = (user: Pick<TestUser, "id">): Scope => systemScope(t.ctx, { userId: user.id, lang: "cn", localization: "CN" });
const staffScope = (staff: TestUser): Scope =>
  systemScope(t.ctx, {
    userId: staff.id,
    lang: "en",
    localization: "US",
    session: { user: { id: staff.id, isStaff: true }, impersonatorId: null } as unknown as Scope["session"],
  });

/**
 * A paid invoice of `user` issued by the CN entity. The factories place orders in the US localisation's scope; a
 * researcher on the CN site gets the invoice of their own localisation (server/orders/place.ts takes the scope's).
 */
async function paidInvoice(user: TestUser, options: { paid?: boolean } = {}): Promise<string> {
  const order = await createCompletedOrder(t.ctx, user, options);
  await t.ctx.db.updateTable("invoices").set({ localization: "CN" }).where("number", "=", order.invoiceNumber!).execute();
  return order.invoiceNumber!;
}

const form = (over: Record<string, string> = {}) => ({
  type: "special",
  deliveryTimeline: "express",
  title: "阿里巴巴（中国）有限公司",
  taxpayerNumber: VALID,
  ...over,
});

function issueRequest(fields: Record<string, string>, file?: { name: string; body: string; type: string }): MultipartBody {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file) data.append("pdf", new Blob([file.body], { type: file.type }), file.name);
  return multipartBody(new Request("http://localhost/staff/fapiaos/1", { method: "POST", body: data }));
}

describe("stored fapiao", () => {
  it("is requested for a paid invoice once; the check character is verified; another user's invoice is not found", async () => {
    const user = await chineseResearcher();
    const number = await paidInvoice(user);
    const bad = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, form({ taxpayerNumber: BAD_CHECK }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.fieldErrors).toEqual({ taxpayerNumber: "fapiao:errors.fapiao-taxpayer-number-error" });
    const empty = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, {});
    expect(!empty.ok && Object.keys(empty.fieldErrors).sort()).toEqual(["deliveryTimeline", "taxpayerNumber", "title", "type"]);

    const r = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, form());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ origin: "stored", status: "requested", type: "special", taxpayerNumber: VALID, cancellable: false });
    const again = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, form({ type: "general" }));
    expect(!again.ok && again.error).toBe("fapiao-already-requested");

    const other = await chineseResearcher();
    const theirs = await createStoredFapiao(cnScope(other), { invoiceNumber: number }, form());
    expect(!theirs.ok && theirs.error).toBe("not-found");
    expect((await listFapiaos(cnScope(other))).ok && (await listFapiaos(cnScope(other)))).toMatchObject({ value: [] });
  });

  it("two concurrent requests for one invoice make one fapiao", async () => {
    const user = await chineseResearcher();
    const number = await paidInvoice(user);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => createStoredFapiao(cnScope(user), { invoiceNumber: number }, form())),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const rows = await t.ctx.db.selectFrom("fapiaos").select("id").where("invoice_number", "=", number).execute();
    expect(rows).toHaveLength(1);
  });

  it("is refused before payment and where the localisation does not process fapiao after payment", async () => {
    const user = await chineseResearcher();
    const unpaid = await paidInvoice(user, { paid: false });
    const r = await createStoredFapiao(cnScope(user), { invoiceNumber: unpaid }, form());
    expect(!r.ok && r.error).toBe("invoice-not-paid");

    const american = await createResearcher(t.ctx);
    const usInvoice = (await createCompletedOrder(t.ctx, american)).invoiceNumber!;
    const us = await createStoredFapiao(scopeFor(t.ctx, american), { invoiceNumber: usInvoice }, form());
    expect(!us.ok && us.error).toBe("fapiao-not-available");
  });

  it("refuses a prepayment of the US entity (PUS…), accepts a paid Chinese one", async () => {
    const user = await chineseResearcher();
    const base = {
      kind: "prepayment" as const,
      user_id: user.id,
      currency_iso: "USD",
      amount: 50000,
      balance: 0,
      status: "paid",
      paid_at: new Date(),
    };
    const suffix = String(Date.now()).slice(-7);
    await t.ctx.db
      .insertInto("invoices")
      .values([
        { ...base, number: `PUS${suffix}`, localization: "US" },
        { ...base, number: `PCN${suffix}`, localization: "CN" },
      ])
      .execute();
    const us = await createStoredFapiao(cnScope(user), { retainerInvoiceNumber: `PUS${suffix}` }, form());
    expect(!us.ok && us.error).toBe("fapiao-us-prepayment");
    const cn = await createStoredFapiao(cnScope(user), { retainerInvoiceNumber: `PCN${suffix}` }, form());
    expect(cn.ok && cn.value.retainerInvoiceNumber).toBe(`PCN${suffix}`);
    // ?context=Paddle: the prepayments' fapiaos only.
    const invoiceNumber = await paidInvoice(user);
    await createStoredFapiao(cnScope(user), { invoiceNumber }, form({ type: "general" }));
    const paddle = await listFapiaos(cnScope(user), { context: "Paddle" });
    expect(paddle.ok && paddle.value.map((f) => f.retainerInvoiceNumber)).toEqual([`PCN${suffix}`]);
    const all = await listFapiaos(cnScope(user));
    expect(all.ok && all.value).toHaveLength(2);
  });
});

describe("issue and cancellation", () => {
  it("staff issue it with a PDF; the owner downloads and cancels it within the window; then it may be asked again", async () => {
    const user = await chineseResearcher();
    const staff = await createStaff(t.ctx);
    const number = await paidInvoice(user);
    const created = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, form());
    if (!created.ok) throw new Error(created.error);
    const id = created.value.id;
    expect(await cancelFapiao(cnScope(user), id)).toMatchObject({ ok: false, error: "fapiao-not-cancellable" });

    // Not a PDF (a text file named .pdf), then no number: nothing kept.
    const notPdf = await staffIssueFapiao(
      staffScope(staff),
      id,
      issueRequest({ fapiaoNumber: "12345678" }, { name: "f.pdf", body: "hello", type: "application/pdf" }),
    );
    expect(!notPdf.ok && notPdf.fieldErrors.pdf).toBe("fapiao:errors.pdf-invalid");
    const noNumber = await staffIssueFapiao(
      staffScope(staff),
      id,
      issueRequest({ fapiaoNumber: "" }, { name: "f.pdf", body: PDF, type: "application/pdf" }),
    );
    expect(!noNumber.ok && noNumber.fieldErrors).toEqual({ fapiaoNumber: "fapiao:errors.fapiao-number-required" });
    // A researcher cannot issue.
    expect(await staffIssueFapiao(cnScope(user), id, issueRequest({ fapiaoNumber: "1" }))).toMatchObject({
      ok: false,
      error: "not-allowed",
    });

    const issued = await staffIssueFapiao(
      staffScope(staff),
      id,
      issueRequest({ fapiaoNumber: "24332000000012345678" }, { name: "fapiao.pdf", body: PDF, type: "application/pdf" }),
    );
    expect(issued.ok && issued.value).toMatchObject({
      status: "issued",
      fapiaoNumber: "24332000000012345678",
      hasPdf: true,
      cancellable: true,
    });
    const again = await staffIssueFapiao(
      staffScope(staff),
      id,
      issueRequest({ fapiaoNumber: "1" }, { name: "fapiao.pdf", body: PDF, type: "application/pdf" }),
    );
    expect(!again.ok && again.error).toBe("fapiao-already-issued");

    const pdf = await fapiaoPdf(cnScope(user), id);
    expect(pdf.ok && pdf.value.contentType).toBe("application/pdf");
    const stranger = await chineseResearcher();
    expect(await fapiaoPdf(cnScope(stranger), id)).toMatchObject({ ok: false, error: "not-found" });
    expect(await cancelFapiao(cnScope(stranger), id)).toMatchObject({ ok: false, error: "not-found" });

    const cancelled = await cancelFapiao(cnScope(user), id);
    expect(cancelled.ok && cancelled.value.status).toBe("cancelled");
    const renewed = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, form({ type: "general" }));
    expect(renewed.ok).toBe(true);
  });

  it("refuses the researcher's cancellation once the payment is more than a year old", async () => {
    const user = await chineseResearcher();
    const staff = await createStaff(t.ctx);
    const number = await paidInvoice(user);
    const created = await createStoredFapiao(cnScope(user), { invoiceNumber: number }, form());
    if (!created.ok) throw new Error(created.error);
    await staffIssueFapiao(
      staffScope(staff),
      created.value.id,
      issueRequest({ fapiaoNumber: "12345678" }, { name: "f.pdf", body: PDF, type: "application/pdf" }),
    );
    await t.ctx.db
      .updateTable("invoice_payments")
      .set({ created_at: new Date(Date.now() - 366 * DAY) })
      .where("invoice_number", "=", number)
      .execute();
    const r = await cancelFapiao(cnScope(user), created.value.id);
    expect(!r.ok && r.error).toBe("fapiao-not-cancellable");
    const row = await t.ctx.db.selectFrom("fapiaos").select("status").where("id", "=", created.value.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("issued");
  });
});

describe("organisation suggestions", () => {
  it("suggests names used before (own with taxpayer number, others' without), from 2 characters, 10 at most", async () => {
    const alice = await chineseResearcher();
    const bob = await chineseResearcher();
    const tag = `测试${randomUUID().slice(0, 4)}`;
    for (let i = 0; i < 12; i++) {
      const number = await paidInvoice(alice);
      const r = await createStoredFapiao(cnScope(alice), { invoiceNumber: number }, form({ title: `${tag}大学第${i}研究所` }));
      expect(r.ok).toBe(true);
    }
    const own = await organizationSuggestions(cnScope(alice), tag);
    expect(own.ok && own.value).toHaveLength(10);
    expect(own.ok && own.value[0].taxpayerNumber).toBe(VALID);
    const theirs = await organizationSuggestions(cnScope(bob), tag);
    expect(theirs.ok && theirs.value).toHaveLength(10);
    expect(theirs.ok && theirs.value.every((s) => s.taxpayerNumber === null && s.name.startsWith(tag))).toBe(true);
    expect(await organizationSuggestions(cnScope(bob), "测")).toEqual({ ok: true, value: [] });
  });
});

describe("order fapiao", () => {
  it("applies to a Chinese researcher on a site that does not process fapiao after payment, with one invoice", async () => {
    const onUs = await chineseResearcher();
    await t.ctx.db.updateTable("users").set({ localization: "US" }).where("id", "=", onUs.id).execute();
    const s = systemScope(t.ctx, { userId: onUs.id, lang: "cn", localization: "US" });
    expect(await orderFapiaoState(s, {})).toEqual({ disabled: false });
    expect(await orderFapiaoState(s, { invoiceCount: 1 })).toEqual({ disabled: false });
    expect(await orderFapiaoState(s, { invoiceCount: 2 })).toEqual({ disabled: true });
    // On the CN site the stored-fapiao pages serve instead; an American is never asked.
    expect(await orderFapiaoState(cnScope(await chineseResearcher()), {})).toBeNull();
    expect(await orderFapiaoState(scopeFor(t.ctx, await createResearcher(t.ctx)), {})).toBeNull();
  });

  it("is stored for the order's invoice when the order is paid by bank transfer", async () => {
    const user = await chineseResearcher();
    await t.ctx.db.updateTable("users").set({ localization: "US" }).where("id", "=", user.id).execute();
    const orderForm = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Drought soils" });
    const fapiao = {
      type: "general" as const,
      serviceType: "editing",
      organizationName: "北京大学",
      taxpayerNumber: null,
      contactEmail: "li@example.org",
      contactPhone: "13800138000",
      shippingAddress: null,
    };
    const r = await payOrderForm(
      systemScope(t.ctx, { userId: user.id, lang: "cn", localization: "US" }),
      orderForm,
      paymentSubmission(PAYMENT_METHOD.bankTransfer, { requireFapiao: true, fapiao }),
      randomUUID(),
    );
    expect(r.ok).toBe(true);
    const rows = await t.ctx.db.selectFrom("fapiaos").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ origin: "order", status: "requested", type: "general", title: "北京大学", service_type: "editing" });
    const invoice = await t.ctx.db.selectFrom("invoices").select("number").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(rows[0].invoice_number).toBe(invoice.number);
  });
});
