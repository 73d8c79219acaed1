// Placing an order from a completed order form: one transaction, idempotent
// (the order form is locked; a second submit returns the first order), the
// amount computed on the server only. The invoice of an order billed by invoice is issued by
// server/billing (invoices) in the same transaction; which methods are allowed is server/payments' rule.
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { findOrderForm, formFiles, ownerOf, priceForm, type OrderFormRow } from "../order-form";
import { invalidateUser } from "../accounts/user-cache";
import { auditImpersonated } from "../kernel/audit";
import { invoiceNumberOf, issueInvoice, issuingEntity } from "../billing";
import { offeredMethodIds } from "../payments/offer";
import { PAYMENT_METHOD } from "#common/payments/methods";

const PAYMENT_METHOD_CREDITS: number = PAYMENT_METHOD.credits;
import { consumeVoucher, findVoucher, voucherProblem } from "../vouchers";
import type { PriceResult } from "../catalogue";
import { orderNotificationJob, recordHistory, transitionIn } from "./life";
import { canTransition } from "#common/orders/status";
import { clip } from "#common/text";

export type PlaceError =
  | "no-services"
  | "no-files"
  | "not-ready"
  | "payment-method-required"
  | "accept-terms"
  | "blocked"
  | "sign-in-required"
  | "promo-code-used-up"
  | "voucher-used-up";

/** Thrown inside the placing transaction to roll it back: the promo code's last use went to another order. */
class PromoUsedUp extends Error {}
/** Thrown inside the placing transaction to roll it back: the voucher can no longer be used (ADR 038). */
class VoucherUsedUp extends Error {}

/** How often a placement re-reads and re-prices a form that changed between pricing and locking it. */
const STALE_RETRIES = 3;

export interface PlacedOrder {
  externalId: string;
  invoiceNumber: string | null;
  total: number;
  currencyIso: string;
  alreadyPlaced: boolean;
}

/**
 * An order staff place for a researcher (spec 2 §6 "Admin options", server/staff/admin-orders.ts): no invoice
 * when `suppressInvoiceCreation`, and no "order received" mail unless `requireCustomerNotification`. Its files
 * may follow later (the form says "upload files later"): staff often receive the manuscript by e-mail.
 */
export interface AdminPlacement {
  suppressInvoiceCreation: boolean;
  requireCustomerNotification: boolean;
}

export type PlaceInput = {
  paymentMethodId: number;
  /** What is left to pay after prepaid and credit balances (issue 13): the methods offered follow it. */
  payableTotal?: number;
  purchaseOrder?: string | null;
  acceptTerms: boolean;
  admin?: AdminPlacement;
  /** The billing or invoice address the payment form took, kept on the invoice (its PDF shows it). */
  billing?: Record<string, unknown> | null;
  fapespProcessNumber?: string | null;
  grantNumber?: string | null;
  /** A currency the payment option fixes (FAPESP: USD, spec 2 §4): the order and its invoice are priced in it. */
  fixedCurrencyIso?: string | null;
};

/** The form as it is priced and placed: in the currency the payment option fixes, if any (not saved on the form). */
export function inCurrency(form: OrderFormRow, currencyIso: string | null | undefined): OrderFormRow {
  return currencyIso && form.currency_iso.trim() !== currencyIso ? { ...form, currency_iso: currencyIso } : form;
}

export async function placeOrder(scope: Scope, form: OrderFormRow, input: PlaceInput): Promise<Result<PlacedOrder>> {
  let current = inCurrency(form, input.fixedCurrencyIso);
  for (let attempt = 0; ; attempt++) {
    const r = await placeOnce(scope, current, input);
    if (r !== "stale") return r;
    // The form changed after it was priced (another tab, a racing request): the order is made from the form
    // as it is now, never from an older copy, so the placed form and its order's line items agree (issue 10 §13).
    const fresh = attempt < STALE_RETRIES ? await findOrderForm(scope.app.db, form.id, ownerOf(scope)) : null;
    if (!fresh) return fail("not-ready");
    current = inCurrency(fresh, input.fixedCurrencyIso);
  }
}

/**
 * The order placed from one of the owner's order forms (a repeated submit of a placed form shows that order
 * again, issue 10 §13), or null when the form is not theirs or not placed.
 */
export async function placedOrderOfForm(scope: Scope, formId: string): Promise<string | null> {
  const form = await findOrderForm(scope.app.db, formId, ownerOf(scope));
  if (!form || form.status !== "placed") return null;
  const order = await scope.app.db.selectFrom("orders").select("external_id").where("order_form_id", "=", form.id).executeTakeFirst();
  return order?.external_id ?? null;
}

/**
 * Whether this form may be placed now with this input, and its price: the checks of placing, run before a
 * provider is asked to charge (server/payments/service.ts) so that a card is never charged for a form that
 * cannot become an order.
 */
export async function placeable(scope: Scope, given: OrderFormRow, input: PlaceInput): Promise<Result<PriceResult>> {
  const form = inCurrency(given, input.fixedCurrencyIso);
  if (!input.acceptTerms) return fail("accept-terms");
  if (!(form.selections ?? []).length) return fail("no-services");
  const files = await formFiles(scope, form);
  if (!files.some((f) => f.kind === "main" || f.kind === "figure") && !(input.admin && form.upload_files_later)) return fail("no-files");
  if (form.current_step !== "payment-details") return fail("not-ready");
  const price = await priceForm(scope, form);
  if (!price) return fail("no-services");
  if (price.noServiceOption || price.veryLongWordCount || price.quoteOnly) return fail("blocked");
  const methods = await offeredMethodIds(scope, {
    purpose: "order",
    form,
    total: input.payableTotal ?? price.total,
    adminCreated: Boolean(input.admin),
    currencyIso: price.currency.isoCode,
  });
  // Balances covering everything (issue 13): free, or the credits method that chose them.
  const coveredByCredits = input.payableTotal === 0 && input.paymentMethodId === PAYMENT_METHOD_CREDITS;
  if (!methods.includes(input.paymentMethodId) && !coveredByCredits) {
    // Two orders raced for the last use of a voucher: the loser's price no longer carries it, so "voucher" is not
    // offered any more. Say why (ADR 038), rather than "choose a payment method".
    if (input.paymentMethodId === PAYMENT_METHOD.voucher && form.voucher_code) {
      const voucher = await findVoucher(scope.app.db, form.voucher_code);
      if (voucher && voucherProblem(voucher, new Date()) === "voucher-used-up") return fail("voucher-used-up");
    }
    return fail("payment-method-required");
  }
  return ok(price);
}

async function placeOnce(scope: Scope, form: OrderFormRow, input: PlaceInput): Promise<Result<PlacedOrder> | "stale"> {
  const userId = scope.userId;
  if (!userId) return fail("sign-in-required");
  const existing = await scope.app.db
    .selectFrom("orders")
    .select(["external_id", "total", "currency_iso", "id"])
    .where("order_form_id", "=", form.id)
    .executeTakeFirst();
  if (existing) return ok(await describe(scope, existing, true));
  const checked = await placeable(scope, form, input);
  if (!checked.ok) return checked;
  const price = checked.value;

  const placeInTransaction = () =>
    scope.app.db.transaction().execute(async (trx) => {
      // Lock the form: two submits at once queue here, and the second finds the first order.
      const locked = await trx
        .selectFrom("order_forms")
        .select(["status", "version"])
        .where("id", "=", form.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const again = await trx
        .selectFrom("orders")
        .select(["external_id", "total", "currency_iso", "id"])
        .where("order_form_id", "=", form.id)
        .executeTakeFirst();
      if (again || locked.status === "placed") return again ? { row: again, already: true } : null;
      // Priced from an older copy: writes are refused from here on (the row is locked, then placed), but one
      // committed between pricing and this lock.
      if (locked.version !== form.version) return "stale" as const;
      const { rows } = await sql<{ n: string }>`select nextval('order_external_seq')::text as n`.execute(trx);
      const externalId = `RS${rows[0].n}`;
      const order = await trx
        .insertInto("orders")
        .values({
          external_id: externalId,
          user_id: userId,
          order_form_id: form.id,
          title: form.project_title ?? externalId,
          status: "placed",
          currency_iso: price.currency.isoCode,
          subtotal: price.subtotal,
          total: price.total,
          line_items: JSON.stringify(price.lineItems),
          discounts: JSON.stringify(price.discounts.filter((d) => d.applied)),
          deadline: price.deadline,
          delivery_tier: price.deliveryTier,
          word_count: form.word_count,
          language_id: form.language_id,
          area_of_study_id: form.area_of_study_id,
          payment_method_id: input.paymentMethodId,
          purchase_order: clip(input.purchaseOrder?.trim() ?? "", 60) || null,
          paid: price.total === 0,
          rework_of_order_id: form.rework ? form.rework_of_order_id : null,
          impersonator_id: scope.impersonatorId,
          style_of_english: form.style_of_english,
          journal: form.journal ? JSON.stringify(form.journal) : null,
          ...(input.admin
            ? {
                admin_created: true,
                suppress_invoice_creation: input.admin.suppressInvoiceCreation,
                require_customer_notification: input.admin.requireCustomerNotification,
              }
            : {}),
        })
        .returning(["id", "external_id", "total", "currency_iso"])
        .executeTakeFirstOrThrow();
      // The order's life starts here (issue 11 §1): its first history row, and the "order received" mail.
      const historyId = await recordHistory(trx, order.id, "place", null, "placed", {
        userId,
        impersonatorId: scope.impersonatorId,
      });
      await orderNotificationJob.enqueue(trx, { historyId });
      if (form.rework && form.rework_of_order_id !== null) {
        // A re-edit of a completed order: the original now waits for it (completing the re-edit returns it).
        const original = await trx.selectFrom("orders").select("status").where("id", "=", form.rework_of_order_id).executeTakeFirst();
        if (original && canTransition(original.status, "request-reedit"))
          await transitionIn(
            trx,
            { userId, impersonatorId: scope.impersonatorId },
            { orderId: form.rework_of_order_id },
            "request-reedit",
            {
              data: { reworkOrder: externalId },
              silent: true,
            },
          );
      }
      // Every order with something to pay has an invoice, whatever the method (ADR 034): bank transfers are
      // paid against it later, providers' payments are credited to it when they confirm.
      if (price.total > 0 && !input.admin?.suppressInvoiceCreation)
        await issueInvoice(trx, {
          orderId: order.id,
          userId,
          currencyIso: price.currency.isoCode,
          amount: price.total,
          numDecimals: price.currency.numDecimals,
          exchangeRate: price.currency.rate,
          legalEntity: await issuingEntity(scope.app, scope.localization),
          // No language: the invoice's documents follow the researcher's account language (ADR 037).
          localization: scope.localization,
          purchaseOrder: clip(input.purchaseOrder?.trim() ?? "", 60) || null,
          billing: input.billing ?? null,
          fapespProcessNumber: input.fapespProcessNumber ?? null,
          grantNumber: input.grantNumber ?? null,
        });
      if (form.promo_code && price.discounts.some((d) => d.kind === "Promotional Code" && d.applied)) {
        // The use limit is enforced here, in the placing transaction, by a conditional update (issue 9 §5):
        // concurrent placements queue on the code's row and each re-checks `times_used < max_uses` after the
        // one before it commits, so a code at 99 of 100 gives its last use to one order only. The others roll
        // back (no order, no invoice) and are told the code is used up; the price they saw assumed it.
        const used = await trx
          .updateTable("promo_codes")
          .set((eb) => ({ times_used: eb("times_used", "+", 1) }))
          .where(sql`upper(code)`, "=", form.promo_code.toUpperCase())
          // A personal code (issue 25) is its owner's only.
          .where((eb) => eb.or([eb("user_id", "is", null), eb("user_id", "=", userId)]))
          .where((eb) => eb.or([eb("max_uses", "is", null), eb("times_used", "<", eb.ref("max_uses"))]))
          .returning("id")
          .executeTakeFirst();
        if (!used) throw new PromoUsedUp();
      }
      // The voucher's use is counted here too, by one conditional update (server/vouchers/consume.ts).
      if (price.discounts.some((d) => d.kind === "Voucher" && d.applied) && !(await consumeVoucher(trx, form))) throw new VoucherUsedUp();
      await trx
        .updateTable("files")
        // A claimed file forgets the address it was uploaded from (ADR 049; a check constraint holds it).
        .set({ owner_user_id: userId, uploader_address: null })
        .where("order_form_id", "=", form.id)
        .where("owner_user_id", "is", null)
        .execute();
      await trx
        .updateTable("order_forms")
        .set((eb) => ({ status: "placed", placed_at: new Date(), updated_at: new Date(), version: eb("version", "+", 1) }))
        .where("id", "=", form.id)
        .execute();
      return { row: order, already: false };
    });
  const placed = await placeInTransaction().catch((error: unknown) => {
    if (error instanceof PromoUsedUp) return "promo-code-used-up" as const;
    if (error instanceof VoucherUsedUp) return "voucher-used-up" as const;
    throw error;
  });
  if (placed === "promo-code-used-up") return fail("promo-code-used-up");
  if (placed === "voucher-used-up") return fail("voucher-used-up");
  if (placed === "stale") return "stale";
  if (!placed) return fail("not-ready");
  // The user's cached view carries numberOfOrders (spec 1 §3).
  if (!placed.already) {
    await invalidateUser(scope.app, userId);
    await auditImpersonated(scope, "order.place", { type: "order", id: placed.row.external_id }, { orderFormId: form.id });
  }
  return ok(await describe(scope, placed.row, placed.already));
}

async function describe(
  scope: Scope,
  row: { id: number; external_id: string; total: string | number; currency_iso: string },
  alreadyPlaced: boolean,
): Promise<PlacedOrder> {
  return {
    externalId: row.external_id,
    invoiceNumber: await invoiceNumberOf(scope.app.db, row.id),
    total: Number(row.total),
    currencyIso: row.currency_iso.trim(),
    alreadyPlaced,
  };
}
