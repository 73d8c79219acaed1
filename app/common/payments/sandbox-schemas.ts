// Query and bodies of the provider endpoints (issue 12 §2, spec 2 §7): the Allpago checkout's query, the
// sandbox widget's card, the sandbox page's buttons. Rules (amount format, installments 1–6) are checked by the
// server; these schemas read the fields.
import * as z from "zod/mini";

const text = z.optional(z.string());

/** GET /api/payment/allpago-checkout?receiptCode&amount&numberOfInstallments (amount in major units, "500.00"). */
export const allpagoCheckoutQuery = z.object({ receiptCode: text, amount: text, numberOfInstallments: text, currency: text });

/** POST /api/payment/allpago-checkout/{checkoutId}/pay: the card the sandbox widget posts. */
export const allpagoCardBody = z.object({ number: z.string(), holder: z.string(), expiry: z.string(), cvv: z.string() });

/** The sandbox page's buttons. */
export const sandboxIntentForm = z.object({ intent: z.enum(["approve", "pay", "cancel"]) });
