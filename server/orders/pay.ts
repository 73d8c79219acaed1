// Paying for an order form and placing its order: the wizard's payment step (issue 12, ADR 034; moved here from
// server/payments/service.ts by ADR 056). Placing an order is orders' business and payments must not import
// orders, so the orchestration sits above both: it prices the form (order-form), holds the balances chosen,
// asks payments to create and charge the attempt, places the order (orders/place) and only then lets payments
// settle the charge onto the order's invoice. The rules it keeps are the ones it had:
// - the provider is asked first and the order placed after: a declined card leaves the order form as it was
//   (issue 12 §6); a charge whose order cannot be placed after all is refunded at once (`undo`);
// - one charge at a time per order form: the form's row is the lock, and a second attempt finds the first one
//   `processing`; with the idempotency key on top, 50 identical submits make one payment row and one charge.
import { fail, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { PaymentAnswer, PaymentSubmission } from "#common/payments/types";
import { fixedCurrencyOf, methodFacts } from "#common/payments/methods";
import type { BalanceChoice } from "#common/payments/balances";
import type { DB } from "../db";
import type { Scope } from "../scope";
import type { Actor } from "../kernel/actor";
import { priceForm, type OrderFormRow } from "../order-form";
import { storeOrderFapiao } from "../fapiao";
import {
  afterCharge,
  applyReservations,
  balanceChoice,
  balancePlan,
  billingOf,
  charge,
  declined,
  detailsOf,
  getProvider,
  idempotent,
  insertPayment,
  keepResult,
  loadPaymentForm,
  markFailed,
  NO_BALANCES,
  offeredMethods,
  panelFor,
  paymentAnswer,
  refuseShortfall,
  refusing,
  releaseReservations,
  spendPlanned,
  undo,
  type PaymentRow,
} from "../payments";
import { inCurrency, placeable, placeOrder } from "./place";
import { afterOrderChange } from "./life";

/** Admin placement options of the staff's order page (server/staff/admin-orders.ts). */
export interface AdminPlacementInput {
  suppressInvoiceCreation: boolean;
  requireCustomerNotification: boolean;
}

/**
 * Pays for an order form and places its order (the wizard's payment step, POST /api/order-form/{id}/payments).
 * Methods without a provider (bank transfer, free, voucher, the local entity's) place the order at once; a
 * provider is asked first and the order placed when it accepted or started the payment.
 */
export async function payOrderForm(
  scope: Scope,
  form: OrderFormRow,
  submission: PaymentSubmission,
  idempotencyKey: string,
  options: { admin?: AdminPlacementInput } = {},
): Promise<Result<PaymentAnswer>> {
  const userId = scope.userId;
  if (!userId) return fail("sign-in-required");
  return idempotent(
    scope.app,
    userId,
    idempotencyKey,
    `order-form:${form.id}`,
    { submission, admin: options.admin ?? null },
    () => payOrderFormOnce(scope, userId, form, submission, options),
    keepResult,
  );
}

async function payOrderFormOnce(
  scope: Scope,
  userId: number,
  form: OrderFormRow,
  submission: PaymentSubmission,
  options: { admin?: AdminPlacementInput },
): Promise<Result<PaymentAnswer>> {
  const facts = methodFacts(submission.paymentMethodId);
  const placeInput = {
    paymentMethodId: submission.paymentMethodId,
    purchaseOrder: submission.purchaseOrder,
    acceptTerms: submission.acceptTerms,
    admin: options.admin,
    billing: billingOf(submission),
    fapespProcessNumber: submission.fapespProcessNumber,
    grantNumber: submission.grantNumber,
    // FAPESP fixes USD for the order, its invoice and this payment (spec 2 §4, ADR 052).
    fixedCurrencyIso: fixedCurrencyOf(submission.brazilChoice),
  };
  const lang = scope.lang;
  // Balances (issue 13, ADR 041): the plan is made again here from the submission and the ledger; the
  // provider is charged only what is left, and the balances go on the invoice once the order has one.
  const priced = await priceForm(scope, inCurrency(form, placeInput.fixedCurrencyIso)).catch(() => null);
  const plan = priced ? await balancePlan(scope, priced.total, priced.currency.isoCode, balanceChoice(submission)) : ok(null);
  if (!plan.ok) return plan;
  const balances = plan.value && plan.value.applied.credits + plan.value.applied.prepayment > 0 ? plan.value : null;
  const placeWith = { ...placeInput, payableTotal: balances ? balances.payable : undefined };
  const actor: Actor = { userId, impersonatorId: scope.impersonatorId };
  // The balances are held before the order is placed or the provider charged (ADR 051): asked for and no longer
  // there (spent by another order meanwhile) refuses this one; held, they are spent only once the order has its
  // invoice and the charge (if any) succeeded, and given back otherwise.
  const hold = (trx: DB, paymentId: string | null) =>
    balances
      ? spendPlanned(
          trx,
          {
            userId,
            invoice: {
              number: "",
              kind: "order",
              order_id: 0,
              user_id: userId,
              currency_iso: balances.currency.isoCode,
              amount: balances.subtotal,
              balance: balances.subtotal,
              status: "",
              order_status: "",
            },
            credits: balances.applied.credits,
            prepayment: balances.applied.prepayment,
            payCurrency: balances.currency.isoCode,
            paymentId,
            actor,
            reserve: true,
          },
          // The catalogue read on this transaction's own connection while it holds the form's lock (ADR 048).
          { db: trx, cache: scope.app.cache },
        ).then((held) => {
          refuseShortfall(balances, held, 1);
          return held;
        })
      : Promise.resolve(null);
  if (!facts.provider) {
    const held = await refusing(() => scope.app.db.transaction().execute(async (trx) => ok(await hold(trx, null))));
    if (!held.ok) return held;
    const ids = held.value?.movementIds ?? [];
    const placed = await placeOrder(scope, form, placeWith);
    if (!placed.ok || placed.value.alreadyPlaced || !placed.value.invoiceNumber) {
      if (ids.length) await scope.app.db.transaction().execute((trx) => releaseReservations(trx, { ids }, actor));
      if (!placed.ok) return placed;
    } else if (ids.length) {
      const invoiceNumber = placed.value.invoiceNumber;
      await scope.app.db.transaction().execute((trx) => applyReservations(trx, scope.app, { ids, userId, actor, invoiceNumber }));
    }
    const applied = held.value && placed.ok && !placed.value.alreadyPlaced ? held.value : null;
    await storeOrderFapiao(scope.app, userId, placed.value.invoiceNumber, submission);
    await afterOrderChange(scope.app, userId);
    return ok({
      paymentId: null,
      status: "succeeded",
      redirectUrl: paths.orderThankYou(lang, placed.value.externalId),
      redirectForm: null,
      error: null,
      ...(applied ? { creditsApplied: applied.credits, prepaymentApplied: applied.prepayment } : {}),
    });
  }
  // A repeated submit after the form was placed (another key, another tab) shows its order.
  const already = await placedOrder(scope.app.db, form.id);
  if (already)
    return ok({ paymentId: null, status: "succeeded", redirectUrl: paths.orderThankYou(lang, already), redirectForm: null, error: null });
  const checked = await placeable(scope, form, placeWith);
  if (!checked.ok) return checked;
  const price = checked.value;
  const chargeAmount = balances && price.total === balances.subtotal ? balances.payable : price.total;
  const provider = getProvider(scope.app, facts.provider);

  const created = await refusing(() =>
    scope.app.db.transaction().execute(async (trx): Promise<Result<PaymentRow>> => {
      // The form's row is the lock: attempts to pay one form queue here, and each sees the one before it.
      const locked = await trx.selectFrom("order_forms").select("status").where("id", "=", form.id).forUpdate().executeTakeFirst();
      if (!locked || locked.status !== "draft") return fail("order-form-placed");
      const busy = await trx
        .selectFrom("payments")
        .select("id")
        .where("order_form_id", "=", form.id)
        .where("status", "in", ["processing", "succeeded"])
        .executeTakeFirst();
      if (busy) return fail("payment-in-progress");
      const inserted = await insertPayment(trx, {
        userId,
        impersonatorId: scope.impersonatorId,
        purpose: "order-form",
        orderFormId: form.id,
        invoiceNumbers: [],
        methodId: submission.paymentMethodId,
        provider,
        amount: chargeAmount,
        currencyIso: price.currency.isoCode,
        exchangeRate: null,
        details: detailsOf(scope, submission, {}),
      });
      const held = await hold(trx, inserted.id);
      if (!held) return ok(inserted);
      const details = { ...inserted.details, creditsApplied: held.credits, prepaymentApplied: held.prepayment };
      await trx
        .updateTable("payments")
        .set({ details: JSON.stringify(details) })
        .where("id", "=", inserted.id)
        .execute();
      return ok({ ...inserted, details });
    }),
  );
  if (!created.ok) {
    if (created.error === "order-form-placed") {
      const externalId = await placedOrder(scope.app.db, form.id);
      if (externalId)
        return ok({
          paymentId: null,
          status: "succeeded",
          redirectUrl: paths.orderThankYou(lang, externalId),
          redirectForm: null,
          error: null,
        });
    }
    return created;
  }
  const payment = created.value;
  const result = await charge(scope, provider, payment, submission, `${form.project_title ?? "Order"}`);
  if (result.status === "failed") return declined(await markFailed(scope.app, payment.id, result));

  const placed = await placeOrder(scope, form, placeWith);
  if (!placed.ok || !placed.value.invoiceNumber) {
    // Accepted by the provider, but the order cannot be placed after all (a promo code's last use went
    // elsewhere): the money goes back at once and the researcher sees why.
    await undo(scope.app, provider, payment, result);
    return placed.ok ? fail("not-ready") : placed;
  }
  const invoiceNumber = placed.value.invoiceNumber;
  await storeOrderFapiao(scope.app, userId, invoiceNumber, submission);
  // The order has its invoice: the held balances are for it (settle() spends them first, then the charge).
  await scope.app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("payments")
      .set({
        invoice_numbers: JSON.stringify([invoiceNumber]),
        details: JSON.stringify({
          ...payment.details,
          orderExternalId: placed.value.externalId,
          allocations: [{ invoiceNumber, amount: payment.amount }],
        }),
        updated_at: new Date(),
      })
      .where("id", "=", payment.id)
      .execute();
    await trx
      .updateTable("balance_movements")
      .set({ invoice_number: invoiceNumber })
      .where("payment_id", "=", payment.id)
      .where("kind", "=", "reserve")
      .execute();
  });
  const after = await afterCharge(scope.app, payment.id, result);
  return ok(paymentAnswer(after));
}

async function placedOrder(db: DB, formId: string): Promise<string | null> {
  const row = await db.selectFrom("orders").select("external_id").where("order_form_id", "=", formId).executeTakeFirst();
  return row?.external_id ?? null;
}

/** The wizard's payment step: the form priced by the order form's rules, the methods its goal allows. */
export async function orderPaymentForm(scope: Scope, form: OrderFormRow, choice: BalanceChoice = NO_BALANCES) {
  const price = await priceForm(scope, form).catch(() => null);
  const currencyIso = price?.currency.isoCode ?? form.currency_iso;
  // Prepayment and credits (issue 13): the methods follow what is left to pay after them (free at 0).
  const { panel, errors } = await panelFor(scope, price?.total ?? 0, currencyIso, choice);
  const total = panel ? panel.payable : (price?.total ?? 0);
  const methods = price ? await offeredMethods(scope, { purpose: "order", total, form, currencyIso }) : [];
  const data = await loadPaymentForm(scope, { purpose: "order", total, currencyIso, methods });
  data.balances = panel;
  // FAPESP is charged in US dollars from the catalogue's USD prices (ADR 052): the option says how much.
  if (data.brazilChoice && price)
    data.fapespTotal =
      currencyIso === "USD" ? price.total : ((await priceForm(scope, inCurrency(form, "USD")).catch(() => null))?.total ?? null);
  return { price, data, balanceErrors: errors };
}
