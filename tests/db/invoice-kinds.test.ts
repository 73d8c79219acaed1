// One invoice model with a kind (issue 21 §1, ADR 058): a prepayment is an invoice of kind 'prepayment', and no
// page, API or payment meant for order invoices sees it. A researcher with one unpaid order invoice places a
// prepayment by bank transfer (an unpaid prepayment invoice): the invoice list, /api/invoice/load, the dashboard's
// unpaid count, the account's unpaid invoices, the pay-many selection and the pay page's totals are as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createResearcher, scopeFor } from "../helpers/factories";
import { bankTransferSubmission } from "../helpers/prepay";
import { payPrepayment } from "../../server/prepay/payment";
import {
  listInvoices,
  loadInvoices,
  payableSelection,
  unpaidInvoicesByNumber,
  everyUnpaidInvoice,
} from "../../server/billing/invoices/list";
import { unpaidInvoicesOf } from "../../server/orders/dashboard";
import { accountOf, getUserView, invalidateUser } from "../../server/accounts/account";
import { invoicesTotal } from "../../server/payments/pay-invoices";
import { loadPayoff } from "../../server/payments/form";
import { invoicePdf } from "../../server/billing/invoices/documents";
import { recordBankPayment, writeOffInvoice } from "../../server/billing";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("a prepayment invoice beside order invoices", () => {
  it("changes nothing the order invoices' pages, API and payments show", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const { invoice } = await createInvoice(t.ctx, user);
    const before = {
      list: await listInvoices(scope, { page: 1 }),
      unpaid: await listInvoices(scope, { page: 1, unpaidOnly: true }),
      load: await loadInvoices(scope, { page: 1 }),
      dashboard: await unpaidInvoicesOf(scope),
      account: (await accountOf(scope)).user.unpaidInvoices,
      wfoe: (await getUserView(t.ctx, user.id))?.wfoeMigrationStatus,
    };
    expect(before.dashboard.count).toBe(1);

    const placed = await payPrepayment(scope, { amount: "300" }, bankTransferSubmission(), randomUUID());
    expect(placed.ok).toBe(true);
    const prepayment = await t.ctx.db
      .selectFrom("invoices")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("kind", "=", "prepayment")
      .executeTakeFirstOrThrow();
    expect([prepayment.status, Number(prepayment.balance), prepayment.order_id]).toEqual(["unpaid", 30000, null]);
    expect(prepayment.number).toMatch(/^PUS\d+$/);

    // The cached user view is read afresh: its unpaid-invoice flag is computed from the database.
    await invalidateUser(t.ctx, user.id);
    expect(await listInvoices(scope, { page: 1 })).toEqual(before.list);
    expect(await listInvoices(scope, { page: 1, unpaidOnly: true })).toEqual(before.unpaid);
    expect(await loadInvoices(scope, { page: 1 })).toEqual(before.load);
    expect(await unpaidInvoicesOf(scope)).toEqual(before.dashboard);
    expect((await accountOf(scope)).user.unpaidInvoices).toEqual(before.account);
    expect((await getUserView(t.ctx, user.id))?.wfoeMigrationStatus).toEqual(before.wfoe);
    expect((await everyUnpaidInvoice(scope, { page: 1, unpaidOnly: true })).numbers).toEqual([invoice.number]);

    // Its number is no order invoice's anywhere an order invoice is paid, selected or printed.
    expect(await unpaidInvoicesByNumber(scope, [prepayment.number])).toEqual([]);
    const selection = await payableSelection(scope, [prepayment.number]);
    expect(!selection.ok && selection.error).toBe("selection-required");
    const total = await invoicesTotal(t.ctx.db, user.id, [prepayment.number]);
    expect(!total.ok && total.error).toBe("not-found");
    const payoff = await loadPayoff(scope, [prepayment.number]);
    expect(!payoff.ok && payoff.error).toBe("not-found");
    const pdf = await invoicePdf(scope, prepayment.number);
    expect(!pdf.ok && pdf.error).toBe("not-found");
    // Staff's order-invoice actions do not reach it either: the prepayment's own page records its transfers.
    const staffActor = { userId: null };
    const transfer = await recordBankPayment(t.ctx, staffActor, prepayment.number, {
      amount: "300",
      reference: "BANK-1",
      receivedOn: new Date().toISOString().slice(0, 10),
    });
    expect(!transfer.ok && transfer.error).toBe("not-found");
    const writeoff = await writeOffInvoice(t.ctx, staffActor, prepayment.number, "now");
    expect(!writeoff.ok && writeoff.error).toBe("not-found");
  });
});
