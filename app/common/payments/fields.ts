// The payment form's field names and the shapes the page renders from, without the schemas (./schemas.ts): what the
// form's components need in the browser, where the zod schemas (~10 KiB) would be weight without use (ADR 083).
/** The page's fields by name: `paymentMethodId`, `address.city`, `invoiceAddress.zip`, `taxNumber`… */
export type PaymentFields = Record<string, string>;

/** The names the payment form posts (and the API body maps to); field errors are keyed by them too. */
export const PAYMENT_FIELD = {
  method: "paymentMethodId",
  terms: "acceptTerms",
  purchaseOrder: "purchaseOrder",
  nonce: "nonce",
  installments: "installments",
  checkoutId: "checkoutId",
  brazilChoice: "brazilChoice",
  fapespProcessNumber: "fapespProcessNumber",
  grantNumber: "grantNumber",
  currency: "currencyIso",
  taxType: "taxType",
  taxNumber: "taxNumber",
  invoiceAddressDiffers: "invoiceAddressDiffers",
  requireFapiao: "requireFapiao",
  useCredits: "useCredits",
  prepayOption: "prepayOption",
  prepayAmount: "prepayAmount",
  idempotencyKey: "idempotencyKey",
} as const;

/** The form names of the two address blocks: the method's address, and the invoice address when it differs. */
export const ADDRESS_FORMS = ["address", "invoiceAddress"] as const;
export type AddressForm = (typeof ADDRESS_FORMS)[number];
export const addressFieldName = (form: AddressForm, field: string) => `${form}.${field}`;

/** A saved address the form offers in its select (the user's own, table `addresses`). */
export interface SavedAddress {
  id: number;
  label: "billing" | "invoice";
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

/** What the payment form needs to render (loaded by server/payments/form.ts, also GET /api/payment/load). */
export interface PaymentFormData {
  purpose: "order" | "invoices" | "prepay" | "digital";
  /** The methods offered, in order; `sandbox`: its provider runs in test mode ("test mode" badge); `disabled`: shown, not selectable. */
  methods: { id: number; sandbox: boolean; disabled: boolean }[];
  savedAddresses: SavedAddress[];
  countries: import("./address").CountryChoice[];
  currencies: { isoCode: string; shortName: string }[];
  /** The user's country, preselected in a new address. */
  userCountryId: number | null;
  /** Vouchers may be applied by this account (spec 2 §6 voucherAvailable). */
  voucherAvailable: boolean;
  brazilCountryId: number | null;
  /** The Brazil choice (no requirements / FAPESP / Allpago) is asked: the BR localisation. */
  brazilChoice: boolean;
  /** An order's total in USD cents, what FAPESP funds are charged (spec 2 §4, ADR 052); absent when not asked. */
  fapespTotal?: number | null;
  total: number;
  currencyIso: string;
  /** Made once by the page's loader, posted back: a double submit of one page is one payment. */
  idempotencyKey: string;
  /** Issue 13: the prepayment / credits panel (null: nothing to spend, hidden invoices, or not offered here). */
  balances?: import("./balances").BalancePanel | null;
  /** The order fapiao question applies (issue 13 §4); `disabled` unless exactly one invoice is paid. */
  fapiao?: { disabled: boolean } | null;
}

/** A page action's answer when the payment was not made: the form again with its values and errors. */
export interface PaymentReply {
  /** Field errors as translation keys, keyed by the form's field names. */
  fieldErrors: Record<string, string>;
  /** The posted values, to fill the form again. */
  values: PaymentFields;
  /** A refusal of the whole payment: an error code, and the provider's text when it gave one. */
  error: string | null;
  errorDetail?: string | null;
}
