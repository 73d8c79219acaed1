// The staff payments console's domain (issue 12 §8) on a real database: an invoice's write-off (marked pending,
// or the rest closed by a ledger row; idempotent, audited, in the order's history), the voucher form's
// validation, the payment search, and that none of it answers anyone but staff.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createResearcher, createStaff, scopeFor, uniqueEmail } from "../helpers/factories";
import { readSession } from "../../server/accounts/session";
import { systemScope, type Scope } from "../../server/scope";
import { orderHistory } from "../../server/orders/life";
import { writeOffInvoice } from "../../server/billing";
import {
  searchStaffPayments,
  staffInvoicePage,
  staffPaymentPage,
  staffRefund,
  staffWriteOff,
  summarizeEventData,
} from "../../server/staff/payments";
import { createVoucher, deactivateVoucher, listVouchers, newVoucherCode } from "../../server/staff/vouchers";
import { ok } from "../../app/common/result";

let t: TestContext;
let staffScope: Scope;
let staffId: number;
beforeAll(async () => {
  t = await createTestContext();
  const staff = await createStaff(t.ctx);
  staffId = staff.id;
  staffScope = systemScope(t.ctx, { userId: staff.id, lang: "en", localization: "US", session: await readSession(t.ctx.db, staff.token) });
});
afterAll(async () => t.close());

const invoiceRow = (n: string) => t.ctx.db.selectFrom("invoices").selectAll().where("number", "=", n).executeTakeFirstOrThrow();
const ledger = (n: string) => t.ctx.db.selectFrom("invoice_payments").selectAll().where("invoice_number", "=", n).execute();
const audits = (action: string, id: string) =>
  t.ctx.db.selectFrom("audit_log").selectAll().where("action", "=", action).where("target_id", "=", id).execute();

describe("write-off", () => {
  it("marks an invoice pending, then closes the rest with one ledger row, idempotently", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice, order } = await createInvoice(t.ctx, user);
    const balance = Number(invoice.balance);
    expect(balance).toBeGreaterThan(0);

    const pending = await staffWriteOff(staffScope, invoice.number, { intent: "pending-writeoff", note: "" });
    expect(pending.ok && pending.value).toMatchObject({ pendingWriteoff: true, amount: 0, balance, already: false });
    expect((await invoiceRow(invoice.number)).pending_writeoff).toBe(true);
    const again = await staffWriteOff(staffScope, invoice.number, { intent: "pending-writeoff", note: "" });
    expect(again.ok && again.value.already).toBe(true);

    const done = await staffWriteOff(staffScope, invoice.number, { intent: "writeoff", note: "Goodwill" });
    expect(done.ok && done.value).toMatchObject({ amount: balance, balance: 0, status: "written-off", already: false });
    const row = await invoiceRow(invoice.number);
    expect(row).toMatchObject({ status: "written-off", pending_writeoff: false });
    expect(Number(row.balance)).toBe(0);
    expect(row.written_off_at).not.toBeNull();
    const rows = await ledger(invoice.number);
    expect(rows.filter((r) => r.kind === "writeoff")).toHaveLength(1);
    expect(Number(rows.find((r) => r.kind === "writeoff")!.amount)).toBe(balance);

    // Twice, and twice at once: the first write-off is answered again, nothing more is written.
    const repeats = await Promise.all([
      staffWriteOff(staffScope, invoice.number, { intent: "writeoff", note: "" }),
      writeOffInvoice(t.ctx, { userId: staffId }, invoice.number, "now"),
      staffWriteOff(staffScope, invoice.number, { intent: "pending-writeoff", note: "" }),
    ]);
    for (const r of repeats) expect(r.ok && r.value).toMatchObject({ already: true, amount: balance, status: "written-off" });
    expect((await ledger(invoice.number)).filter((r) => r.kind === "writeoff")).toHaveLength(1);

    const orderId = (await t.ctx.db.selectFrom("orders").select("id").where("external_id", "=", order.externalId).executeTakeFirstOrThrow())
      .id;
    const events = (await orderHistory(t.ctx.db, orderId)).map((h) => h.event);
    expect(events).toEqual(expect.arrayContaining(["invoice-writeoff-pending", "invoice-written-off"]));
    expect(events.filter((e) => e === "invoice-written-off")).toHaveLength(1);
    expect(await audits("staff.invoice.writeoff", invoice.number)).toHaveLength(2);
    expect(await audits("staff.invoice.pending-writeoff", invoice.number)).toHaveLength(3);

    const page = await staffInvoicePage(staffScope, invoice.number);
    expect(page?.invoice).toMatchObject({ number: invoice.number, status: "written-off", balance: 0, orderNumber: order.externalId });
    expect(page?.ledger.map((l) => l.kind)).toEqual(["writeoff"]);
  });

  it("refuses unknown invoices and non-staff", async () => {
    const user = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, user);
    const r = await staffWriteOff(staffScope, "NO-SUCH-INVOICE", { intent: "writeoff", note: "" });
    expect(!r.ok && r.error).toBe("not-found");
    const researcher = await staffWriteOff(scopeFor(t.ctx, user), invoice.number, { intent: "writeoff", note: "" });
    expect(!researcher.ok && researcher.error).toBe("not-allowed");
    expect(await staffInvoicePage(scopeFor(t.ctx, user), invoice.number)).toBeNull();
    expect((await invoiceRow(invoice.number)).status).toBe("unpaid");
  });
});

describe("voucher creation", () => {
  it("validates every field and reports them all at once", async () => {
    const r = await createVoucher(staffScope, {
      code: "no spaces allowed",
      kind: "amount",
      amount: "-5",
      currencyIso: "USD",
      maxUses: "0",
      validUntil: "2020-01-01",
    });
    expect(!r.ok && r.fieldErrors).toEqual({
      code: "staffpay:errors.code-invalid",
      amount: "staffpay:errors.invalid-amount",
      maxUses: "staffpay:errors.invalid-max-uses",
      validUntil: "staffpay:errors.date-past",
    });
    const more = await createVoucher(staffScope, { kind: "percent", percent: "101", validUntil: "2026-02-30" });
    expect(!more.ok && more.fieldErrors).toEqual({
      percent: "staffpay:errors.invalid-percent",
      validUntil: "staffpay:errors.invalid-date",
    });
    const currency = await createVoucher(staffScope, { kind: "amount", amount: "5", currencyIso: "XXX" });
    expect(!currency.ok && currency.fieldErrors).toEqual({ currencyIso: "staffpay:errors.currency-unknown" });
    const kind = await createVoucher(staffScope, {});
    expect(!kind.ok && kind.fieldErrors).toEqual({ kind: "staffpay:errors.kind-required" });
    expect(await t.ctx.db.selectFrom("vouchers").select("id").where("code", "=", "NO SPACES ALLOWED").execute()).toHaveLength(0);
  });

  it("generates a code when blank, refuses a taken one in any case, stores amounts in minor units, and audits", async () => {
    const gen = await createVoucher(staffScope, { kind: "amount", amount: "1000", currencyIso: "JPY", maxUses: "3", description: "Yen" });
    expect(gen.ok).toBe(true);
    if (!gen.ok) return;
    expect(gen.value.code).toMatch(/^[2-9A-HJ-NP-Z]{12}$/);
    expect(newVoucherCode()).not.toBe(newVoucherCode());
    const row = await t.ctx.db.selectFrom("vouchers").selectAll().where("id", "=", gen.value.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ currency_iso: "JPY", percent: null, max_uses: 3, created_by: staffId, active: true });
    expect(Number(row.amount)).toBe(1000);
    const euros = await createVoucher(staffScope, { code: "euro-12-50", kind: "amount", amount: "12.50", currencyIso: "eur" });
    expect(euros.ok && euros.value.code).toBe("EURO-12-50");
    const eurRow = await t.ctx.db
      .selectFrom("vouchers")
      .select(["amount", "currency_iso"])
      .where("code", "=", "EURO-12-50")
      .executeTakeFirstOrThrow();
    expect({ amount: Number(eurRow.amount), currency: eurRow.currency_iso }).toEqual({ amount: 1250, currency: "EUR" });
    const taken = await createVoucher(staffScope, { code: "Euro-12-50", kind: "percent", percent: "5" });
    expect(!taken.ok && taken.fieldErrors).toEqual({ code: "staffpay:errors.code-taken" });
    expect(await audits("staff.voucher.create", String(gen.value.id))).toHaveLength(1);

    const list = await listVouchers(staffScope);
    expect(list.ok && list.value.find((v) => v.code === "EURO-12-50")).toMatchObject({
      amount: 1250,
      currency: { isoCode: "EUR" },
      active: true,
    });
    const off = await deactivateVoucher(staffScope, euros.ok ? euros.value.id : 0);
    expect(off.ok && off.value.already).toBe(false);
    const twice = await deactivateVoucher(staffScope, euros.ok ? euros.value.id : 0);
    expect(twice.ok && twice.value.already).toBe(true);
    expect(await audits("staff.voucher.deactivate", String(euros.ok ? euros.value.id : 0))).toHaveLength(1);
  });

  it("is staff's only", async () => {
    const user = await createResearcher(t.ctx);
    const r = await createVoucher(scopeFor(t.ctx, user), { kind: "percent", percent: "50" });
    expect(!r.ok && r.error).toBe("not-allowed");
    expect((await listVouchers(scopeFor(t.ctx, user))).ok).toBe(false);
  });
});

describe("payments search and refund", () => {
  it("finds payments by e-mail, order, invoice, status and method, and shows their events", async () => {
    const email = uniqueEmail("payer");
    const user = await createResearcher(t.ctx, { email });
    const { invoice, order } = await createInvoice(t.ctx, user);
    // A settled card payment of that invoice with one provider event, as the payments service records them.
    const payment = await t.ctx.db
      .insertInto("payments")
      .values({
        user_id: user.id,
        purpose: "invoices",
        invoice_numbers: JSON.stringify([invoice.number]),
        method_id: 3,
        provider: "card",
        status: "succeeded",
        amount: 5000,
        currency_iso: "USD",
        provider_ref: `ref-${Date.now()}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto("payment_events")
      .values({
        payment_id: payment.id,
        provider: "card",
        kind: "return",
        verified: true,
        outcome: "succeeded",
        data: JSON.stringify({ status: "submitted_for_settlement", nested: { a: 1 } }),
      })
      .execute();
    for (const q of [
      { email: email.slice(0, 12).toUpperCase() },
      { invoice: invoice.number },
      { status: "succeeded", method: "3", email },
    ]) {
      const r = await searchStaffPayments(staffScope, q);
      expect(r.ok && r.value.payments.map((p) => p.id), JSON.stringify(q)).toContain(payment.id);
    }
    const none = await searchStaffPayments(staffScope, { email, status: "failed" });
    expect(none.ok && none.value.pagination.total).toBe(0);
    const bad = await searchStaffPayments(staffScope, { status: "lost", page: "0" });
    expect(!bad.ok && bad.fieldErrors).toEqual({ page: "staffpay:errors.invalid-page", status: "staffpay:errors.invalid-status" });
    expect(order.externalId).toBeTruthy();

    const page = await staffPaymentPage(staffScope, payment.id);
    expect(page?.refundable).toBe(5000);
    expect(page?.events).toHaveLength(1);
    expect(page?.events[0]).toMatchObject({
      kind: "return",
      outcome: "succeeded",
      verified: true,
      summary: "nested={…}, status=submitted_for_settlement",
    });
    expect(await staffPaymentPage(scopeFor(t.ctx, user), payment.id)).toBeNull();
    expect(await staffPaymentPage(staffScope, "not-a-uuid")).toBeNull();

    // The refund: at most what was paid and not refunded, with a reason; the provider call is the service's.
    const calls: unknown[] = [];
    const refund = async (...args: unknown[]) => {
      calls.push(args.slice(1));
      return ok(null);
    };
    const over = await staffRefund(staffScope, payment.id, { intent: "refund", amount: "50.01", reason: "" }, refund);
    expect(!over.ok && over.fieldErrors).toEqual({
      amount: "staffpay:errors.amount-exceeds-refundable",
      reason: "staffpay:errors.reason-required",
    });
    const good = await staffRefund(staffScope, payment.id, { intent: "refund", amount: "20", reason: "Duplicate charge" }, refund);
    expect(good.ok && good.value.amount).toBe(2000);
    expect(calls).toEqual([[payment.id, 2000, "Duplicate charge", { reopen: false }]]);
    expect(await audits("staff.payment.refund", payment.id)).toHaveLength(1);
  });

  it("summarises event data in one short line", () => {
    expect(summarizeEventData({ a: "x".repeat(60), b: null, c: [1] })).toBe(`a=${"x".repeat(39)}…, b=null, c={…}`);
    expect(summarizeEventData(null)).toBe("");
  });
});
