// Vouchers (issue 12 §7): the payment step's voucher form, and the staff console's voucher form.
import * as z from "zod/mini";

export * from "./outcomes";

const text = z.optional(z.string());

/** The payment step's voucher panel: apply a code, or remove the applied one. */
export const voucherForm = z.object({ intent: text, code: text });
export type VoucherFormInput = z.output<typeof voucherForm>;

/** Staff: a new voucher (code blank: generated). Amounts as typed, in major units ("25.00"). */
export const staffVoucherForm = z.object({
  intent: text,
  id: text,
  code: text,
  description: text,
  kind: text,
  amount: text,
  currencyIso: text,
  percent: text,
  maxUses: text,
  validUntil: text,
});
export type StaffVoucherInput = z.output<typeof staffVoucherForm>;
