// GET /api/order/{id}/payment (spec 2 §7 "order"): a placed order as its payment needs it — the order of spec 2 §3
// (status and flags from life.ts, lines, discounts, currency, pending payments with their boleto) and what is left to
// pay on its invoice, with the code the payoff call takes (receiptCode) and the page that pays it. The same read as
// the dashboard and the details page (read.ts); issue 22 item 4.
import { fail, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { Scope } from "../scope";
import { fixedT } from "../i18n";
import { EXTERNAL_ID, flagContextOf, getOrder, type OrderView } from "./read";

/**
 * Who may read an order's payment: its owner (staff viewing as them included: the session is the researcher's), and
 * staff in their own session any order, as the deliverables calls allow (server/orders/downloads.ts). Anyone else
 * `not-found`, never a hint that the order exists.
 */
async function readableOrder(scope: Scope, externalId: string): Promise<OrderView | null> {
  if (scope.userId === null || !EXTERNAL_ID.test(externalId)) return null;
  let ownerId = scope.userId;
  if (scope.session?.user.isStaff && scope.impersonatorId === null) {
    const row = await scope.app.db.selectFrom("orders").select("user_id").where("external_id", "=", externalId).executeTakeFirst();
    if (!row) return null;
    ownerId = row.user_id;
  }
  return getOrder(scope.app.db, ownerId, externalId, await flagContextOf(scope));
}

export async function orderPayment(scope: Scope, externalId: string): Promise<Result<{ order: ReturnType<typeof paymentShape> }>> {
  const order = await readableOrder(scope, externalId);
  if (!order) return fail("not-found");
  return ok({ order: paymentShape(scope, order) });
}

function paymentShape(scope: Scope, o: OrderView) {
  const t = fixedT(scope.lang, "catalogue");
  const td = fixedT(scope.lang, "order");
  const invoice = o.invoice;
  const amountDue = invoice && invoice.status !== "void" && !o.flags.cancelled ? Math.max(0, invoice.balance) : 0;
  return {
    externalId: o.externalId,
    title: o.title,
    status: o.status,
    displayStatus: o.flags.displayStatus,
    createdAt: o.createdAt,
    deadline: o.deadline,
    completedAt: o.completedAt,
    completed: o.flags.completed,
    paid: o.paid,
    inProgress: o.flags.inProgress,
    downloadAvailable: o.flags.downloadAvailable,
    reeditAvailable: o.flags.reeditAvailable,
    touchUpAvailable: o.flags.touchUpAvailable,
    certificateReady: o.flags.certificateReady,
    hasFigures: o.flags.hasFigures,
    hasManuscriptFormatting: o.flags.hasManuscriptFormatting,
    adminCreated: o.adminCreated,
    freeOrder: o.total === 0,
    currency: o.currency,
    lineItems: o.lineItems.map((l) => ({
      serviceIdentity: l.serviceIdentity,
      name: t(l.nameKey),
      quantity: l.quantity,
      listPrice: l.listPrice,
      discountAmount: l.discountAmount,
      totalPrice: l.totalPrice,
    })),
    discounts: o.discounts.map((d) => ({ description: td(d.descriptionKey), appliedAmount: d.appliedAmount })),
    subtotal: o.subtotal,
    total: o.total,
    paymentMethodId: o.paymentMethodId,
    purchaseOrder: o.purchaseOrder,
    invoice,
    // The code the payoff call takes to pay it (POST /api/payoff/payment additionalData.payoffReceiptCodes).
    receiptCode: invoice?.number ?? null,
    amountDue,
    pendingPayments: o.pendingPayments.map((p) => ({ id: p.id, paymentMethodId: p.methodId, boletoUrl: p.boletoUrl })),
    // Where a researcher pays what is due: the invoice's pay page (null when nothing is due or a payment is pending).
    payUrl: invoice && amountDue > 0 && o.pendingPayments.length === 0 ? paths.invoicesPay(scope.lang, [invoice.number]) : null,
  };
}
