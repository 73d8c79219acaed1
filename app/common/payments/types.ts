// The payment form's parsed submission (issue 12 §1): what the shared form posts, after the shared schema
// (app/common/payments/schemas.ts) and the method's rules (server/payments/form.ts) accepted it. The same shape
// arrives from the wizard's payment step, invoice pay, prepay and digital purchases, and from the API.
import type { BrazilChoice } from "./methods";

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

export interface PaymentSubmission {
  paymentMethodId: number;
  acceptTerms: boolean;
  /** Bank transfer: the researcher's purchase order number, ≤ 60. */
  purchaseOrder: string | null;
  /** Card: the hosted fields' one-time nonce. */
  nonce: string | null;
  /** Allpago card: 1–6. */
  installments: number | null;
  /** Allpago: the widget's checkout id. */
  checkoutId: string | null;
  brazilChoice: BrazilChoice | null;
  fapespProcessNumber: string | null;
  grantNumber: string | null;
  /** The currency the researcher chose to be charged in (card), or null for the invoice's own. */
  currencyIso: string | null;
  /** The billing address (card, PayPal, local methods) or the invoice address (bank transfer), when asked. */
  address: PaymentAddress | null;
  /** Bank transfer with a billing address too: false when the invoice goes to another address than billing. */
  invoiceAddressSameAsBilling: boolean;
  invoiceAddress: PaymentAddress | null;
  taxId: TaxId | null;
  /** Issue 13 (prepay and credits): spending balances, and the order fapiao. Parsed, not yet acted on here. */
  useCredits: boolean;
  prepayOption: "fullPayment" | "partialPayment" | "none";
  prepayAmount: string | null;
  requireFapiao: boolean;
  /** The order fapiao's details when the researcher answered 'yes' where it applies (issue 13 §4), else null. */
  fapiao?: import("../fapiao/schemas").OrderFapiaoInput | null;
}

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
