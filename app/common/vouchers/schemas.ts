// Vouchers (issue 12 §7): the payment step's voucher form, and the staff console's voucher form.
import * as z from "zod/mini";

const text = z.optional(z.string());

/** The payment step's voucher panel: apply a code, or remove the applied one. */
export const voucherForm = z.object({ intent: text, code: text });
export type VoucherFormInput = z.output<typeof voucherForm>;

/** The payment step's `?voucher=` outcome: a message code from this closed list, never free text. */
export const VOUCHER_OUTCOMES = [
  "voucher-applied",
  "voucher-removed",
  "voucher-code-empty",
  "voucher-not-found",
  "voucher-inactive",
  "voucher-expired",
  "voucher-used-up",
  "voucher-not-available",
  "too-many-requests",
] as const;
export type VoucherOutcome = (typeof VOUCHER_OUTCOMES)[number];
export const voucherOutcome = (v: string | null | undefined): VoucherOutcome | null =>
  (VOUCHER_OUTCOMES as readonly (string | null | undefined)[]).includes(v) ? (v as VoucherOutcome) : null;

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
