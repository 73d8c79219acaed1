// A voucher on the researcher's order form (spec 2 §4 "Applying a valid voucher selects the voucher method",
// issue 12 §7): applied to and removed from a draft only, like the promo code (./promo.ts). The order form's
// verbs, not the vouchers area's: the order form prices with vouchers (../vouchers), so vouchers load no order
// form (ADR 059).
import { fail, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { verifyVoucher, type VoucherView } from "../vouchers";
import { findOrderForm, OrderFormClosedError, ownerOf, saveOrderForm, type OrderFormRow } from "./store";

/** A write on the owner's draft: another user's form is not found, a placed one `order-form-placed` (409). */
async function onDraft(
  scope: Scope,
  formId: string,
  write: (form: OrderFormRow) => Promise<Result<OrderFormRow>>,
): Promise<Result<OrderFormRow>> {
  if (!scope.userId) return fail("not-found");
  const form = await findOrderForm(scope.app.db, formId, ownerOf(scope));
  if (!form) return fail("not-found");
  if (form.status !== "draft") return fail("order-form-placed");
  try {
    return await write(form);
  } catch (error) {
    // Placed by a concurrent request after the check: the guarded write changed nothing (issue 10 §13).
    if (error instanceof OrderFormClosedError) return fail("order-form-placed");
    throw error;
  }
}

/**
 * Applies a voucher code to the user's draft order form (one voucher per form: a new code replaces the old).
 * Errors: `not-found`, `order-form-placed`, the verification codes of verifyVoucher.
 */
export async function applyVoucher(
  scope: Scope,
  formId: string,
  rawCode: string,
): Promise<Result<{ form: OrderFormRow; voucher: VoucherView }>> {
  let voucher: VoucherView | null = null;
  const r = await onDraft(scope, formId, async (form) => {
    const v = await verifyVoucher(scope, rawCode);
    if (!v.ok) return v;
    voucher = v.value.voucher;
    return ok(await saveOrderForm(scope.app.db, form, { voucher_code: v.value.voucher.code }));
  });
  return r.ok ? ok({ form: r.value, voucher: voucher! }) : r;
}

/** Removes the voucher from the user's draft (nothing applied: the form as it is). Errors: `not-found`, `order-form-placed`. */
export async function removeVoucher(scope: Scope, formId: string): Promise<Result<OrderFormRow>> {
  return onDraft(scope, formId, async (form) =>
    ok(form.voucher_code ? await saveOrderForm(scope.app.db, form, { voucher_code: null }) : form),
  );
}
