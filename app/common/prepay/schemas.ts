// Prepay (issue 13 §1, spec 2 §2 "Prepay", §5): the forms of the prepay pages, the staff's record-transfer form,
// the currency chooser and the API body. Lenient on values: the domain (server/prepay) checks the amount against
// the currency's minimum and answers translated field errors (`prepay:errors.*`).
import * as z from "zod/mini";
import { paymentBodyFields, paymentBodyShape, type PaymentFields } from "#common/payments/schemas";

import { PREPAY_AMOUNT_MAX_LENGTH } from "./limits";

export * from "./limits";

const text = (max: number) => z.catch(z.string().check(z.maxLength(max)), "");

/** The amount step of /researcher/prepay: Next locks the amount (intent=amount), or Start over. */
export const prepayAmountSchema = z.object({
  intent: z.enum(["amount", "start-over"]),
  amount: text(PREPAY_AMOUNT_MAX_LENGTH + 8),
});
export type PrepayAmountForm = z.output<typeof prepayAmountSchema>;

/** POST /staff/prepayments/{number}: a bank transfer received for a retainer invoice. */
export const retainerTransferSchema = z.object({
  intent: z.literal("record-transfer"),
  amount: text(20),
  reference: text(200),
  receivedOn: text(20),
});
export type RetainerTransferForm = z.output<typeof retainerTransferSchema>;

/** POST /researcher/currency: choose (then confirm) the account's currency. */
export const chooseCurrencySchema = z.object({
  intent: z.enum(["choose", "confirm", "back"]),
  currencyIso: text(3),
  redirect: text(500),
});
export type ChooseCurrencyForm = z.output<typeof chooseCurrencySchema>;

/** GET /researcher/prepay?all=prepayments|credits: the 'Show all' of each list. */
export const prepayListQuery = z.object({ all: z.optional(z.string().check(z.maxLength(20))) });

/**
 * POST /api/prepay/payment: the payment form's body (as /api/payoff/payment takes it) and either `amount`
 * (a new prepayment, major units of the user's currency) or `retainerInvoiceNumber` (an unpaid one).
 */
export const prepayPaymentBody = z.pipe(
  z.looseObject({
    ...paymentBodyShape,
    retainerInvoiceNumber: z.optional(z.nullable(z.union([z.string(), z.number()], "payment:errors.value-invalid"))),
    amount: z.optional(z.nullable(z.union([z.string(), z.number()], "prepay:errors.amount-invalid"))),
  }),
  z.transform((b): { fields: PaymentFields; amount: string | null; retainerInvoiceNumber: string | null } => {
    const { fields } = paymentBodyFields(b);
    const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v).trim() : "");
    return {
      fields,
      amount: str(b.amount) || null,
      retainerInvoiceNumber: str(b.retainerInvoiceNumber) || null,
    };
  }),
);
export type PrepayPaymentBody = z.output<typeof prepayPaymentBody>;
