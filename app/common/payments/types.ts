// The payment form's parsed shapes (issue 12 §1): the addresses and tax id of a submission, and the payment's
// answer. The submission itself is the output of the form's one schema (form-schema.ts, ADR 060). The same shape
// arrives from the wizard's payment step, invoice pay, prepay and digital purchases, and from the API.

export interface PaymentAddress {
  /** A saved address chosen instead of typing one (its fields are then read from the account, owner-checked). */
  addressId: number | null;
  name: string | null;
  organization: string | null;
  address1: string;
  address2: string | null;
  city: string;
  state: string | null;
  zip: string | null;
  countryId: number;
  phone: string | null;
  vat: string | null;
}

export interface TaxId {
  type: "CPF" | "CNPJ";
  /** Normalised: digits, and upper-case letters for the alphanumeric CNPJ, no punctuation. */
  number: string;
}

/**
 * The parsed payment form: the output of the one schema (`paymentFormSchema`, form-schema.ts), inferred there
 * (issue 21 §6), not stated here.
 */
export type { PaymentSubmission } from "./form-schema";

/** The payment's answer to the page or the API (spec 2 §7 "Payment save"). */
export interface PaymentAnswer {
  paymentId: string | null;
  status: "succeeded" | "pending" | "failed";
  /** Where the browser goes next (the order's thank-you page, the pending payment's page, the provider). */
  redirectUrl: string | null;
  /** A form to post to the provider: auto-submitted with JavaScript, a visible button without. */
  redirectForm: { action: string; method: "post" | "get"; fields: Record<string, string> } | null;
  /** Why the provider refused: a reason of #common/payments/declines (`payment:declines.<reason>`), never its raw text. */
  error: string | null;
  /** Issue 13: what credits and prepayment put on the invoices, minor units of the payment's currency. */
  creditsApplied?: number;
  prepaymentApplied?: number;
}
