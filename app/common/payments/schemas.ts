// Schemas of the shared payment form (issue 12 §1): the page's flat fields and the API's JSON body (spec 2 §3
// "Payment form values") both become one flat record of text fields, which the form's one schema built from the
// page's facts parses (form-schema.ts, ADR 060). The body's schema checks types only: the method decides which
// values count, and every failing field is reported at once.
import * as z from "zod/mini";
import { methodFacts } from "./methods";
import { ADDRESS_FIELDS } from "./address";
import { ORDER_FAPIAO_FIELD } from "../fapiao/schemas";
import { PAYMENT_FIELD, addressFieldName, type AddressForm, type PaymentFields } from "./fields";

export * from "./fields";

const text = (v: unknown): string => (v === undefined || v === null ? "" : typeof v === "object" ? "" : String(v).trim());
/** A JSON yes/no as the form's words: true "on", false "no"; a string as sent (the form's schema reads it). */
const bool = (v: unknown): string => (v === true ? "on" : v === false ? "no" : text(v));
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const INVALID = "payment:errors.value-invalid";
// The body's types (issue 21 §6): a value of the wrong JSON type is a 400 naming its field, with the same
// translation key the page would show beside it, never coerced to "not given". Values are the form schema's.
/** A text or number field. */
const scalar = (message = INVALID) => z.optional(z.nullable(z.union([z.string(), z.number()], message)));
/** A yes/no field: a boolean, or the words of a form. */
const flag = (message = INVALID) => z.optional(z.nullable(z.union([z.boolean(), z.string()], message)));
/** A nested object of the spec's body. */
const nested = <S extends z.core.$ZodLooseShape>(shape: S) => z.optional(z.nullable(z.looseObject(shape, INVALID)));
const list = z.optional(z.nullable(z.union([z.array(z.union([z.string(), z.number()]), INVALID), z.string()], INVALID)));

/** An API address: the spec's shape (`country` as `{ value }` or an id, the saved one's `id`). */
const addressBody = nested({
  id: scalar(),
  addressId: scalar(),
  name: scalar(),
  organization: scalar(),
  address1: scalar(),
  address2: scalar(),
  city: scalar(),
  state: scalar(),
  zip: scalar(),
  countryId: scalar(),
  country: z.optional(z.nullable(z.union([z.string(), z.number(), z.looseObject({ value: scalar() })], INVALID))),
  phone: scalar(),
  vat: scalar(),
});

function addressFields(form: AddressForm, input: unknown): PaymentFields {
  const a = obj(input);
  const country = typeof a.country === "object" ? obj(a.country).value : a.country;
  const values: Record<(typeof ADDRESS_FIELDS)[number], unknown> = {
    addressId: a.id ?? a.addressId,
    name: a.name,
    organization: a.organization,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    state: a.state,
    zip: a.zip,
    countryId: a.countryId ?? country,
    phone: a.phone,
    vat: a.vat,
  };
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [addressFieldName(form, f), text(values[f])]));
}

/** The API body's fields, typed (spec 2 §3 "Payment form values"); the prepay body extends it. */
export const paymentBodyShape = {
  paymentMethodId: scalar("payment:errors.payment-method-required"),
  acceptedTermsAndConditions: flag("payment:errors.payment-accept-terms-and-conditions-failure"),
  purchaseOrder: scalar(),
  creditCard: nested({ nonce: scalar(), currency: scalar("payment:errors.currency-required") }),
  allpagoCreditCard: nested({ numberOfInstallments: scalar("payment:errors.installments-invalid"), checkoutId: scalar() }),
  taxIdentification: nested({ type: scalar("payment:errors.tax-type-required"), number: scalar("payment:errors.tax-number-required") }),
  boleto: nested({ processNumber: scalar(), payer: scalar() }),
  brazilPaymentMethods: scalar("payment:errors.option-required"),
  fapespNumber: scalar(),
  grantNumber: scalar(),
  billingAddress: addressBody,
  invoiceAddress: addressBody,
  invoiceAddressDiffersFromBilling: flag(),
  requireFapiao: flag("fapiao:errors.option-required"),
  useCredits: flag(),
  prepaymentOption: scalar("payment:errors.option-required"),
  amount: scalar("payment:errors.prepay-amount-invalid"),
  additionalData: nested({ payoffReceiptCodes: list }),
  invoiceNumbers: list,
  fapiao: nested({ type: z.optional(z.nullable(z.union([z.string(), z.looseObject({ id: scalar() })], INVALID))) }),
};

/** The body's values as the page's flat fields, and the invoices it pays. */
export function paymentBodyFields(b: Record<string, unknown>): { fields: PaymentFields; invoiceNumbers: string[] } {
  const card = obj(b.creditCard);
  const allpago = obj(b.allpagoCreditCard);
  const tax = obj(b.taxIdentification);
  const boleto = obj(b.boleto);
  const billedByInvoice = methodFacts(Number(b.paymentMethodId)).billedByInvoice;
  const differsAnswer = billedByInvoice ? "" : bool(b.invoiceAddressDiffersFromBilling);
  const differs = differsAnswer === "on" || differsAnswer === "true" || differsAnswer === "yes";
  const main = billedByInvoice ? (b.invoiceAddress ?? b.billingAddress) : b.billingAddress;
  const fields: PaymentFields = {
    [PAYMENT_FIELD.method]: text(b.paymentMethodId),
    [PAYMENT_FIELD.terms]: bool(b.acceptedTermsAndConditions),
    [PAYMENT_FIELD.purchaseOrder]: text(b.purchaseOrder),
    [PAYMENT_FIELD.nonce]: text(card.nonce),
    [PAYMENT_FIELD.currency]: text(card.currency),
    [PAYMENT_FIELD.installments]: text(allpago.numberOfInstallments),
    [PAYMENT_FIELD.checkoutId]: text(allpago.checkoutId),
    [PAYMENT_FIELD.taxType]: text(tax.type),
    [PAYMENT_FIELD.taxNumber]: text(tax.number),
    [PAYMENT_FIELD.brazilChoice]: text(b.brazilPaymentMethods),
    [PAYMENT_FIELD.fapespProcessNumber]: text(b.fapespNumber ?? boleto.processNumber),
    [PAYMENT_FIELD.grantNumber]: text(b.grantNumber),
    [PAYMENT_FIELD.invoiceAddressDiffers]: differsAnswer,
    // Asked where the order fapiao applies: an explicit false is the answer 'no' (issue 13 §4).
    [PAYMENT_FIELD.requireFapiao]: bool(b.requireFapiao),
    [PAYMENT_FIELD.useCredits]: bool(b.useCredits),
    [PAYMENT_FIELD.prepayOption]: text(b.prepaymentOption),
    [PAYMENT_FIELD.prepayAmount]: text(b.amount),
    ...(main === undefined || main === null ? {} : addressFields("address", main)),
    ...(differs ? addressFields("invoiceAddress", b.invoiceAddress) : {}),
    ...orderFapiaoFields(b.fapiao),
  };
  // The boleto's payer is the address's name.
  if (boleto.payer !== undefined && !fields["address.name"]) fields["address.name"] = text(boleto.payer);
  const additional = obj(b.additionalData);
  const listed = additional.payoffReceiptCodes ?? b.invoiceNumbers;
  const invoiceNumbers = (Array.isArray(listed) ? listed : text(listed).split(",")).map(text).filter(Boolean);
  return { fields, invoiceNumbers };
}

/**
 * The API body (POST /api/payoff/payment, POST|PUT /api/order-form/{id}/payments): the spec's names, typed, mapped
 * to the page's fields, which the form's schema of the page's facts then parses (form-schema.ts). Bank transfer
 * sends its `invoiceAddress`; the other methods their `billingAddress`, and an `invoiceAddress` when
 * `invoiceAddressDiffersFromBilling`.
 */
export const paymentBody = z.pipe(
  z.looseObject(paymentBodyShape),
  z.transform((b: Record<string, unknown>) => paymentBodyFields(b)),
);
export type PaymentBody = z.output<typeof paymentBody>;

/** The API's `fapiao` object (spec 2 §3 "Fapiao form") as the page's `fapiao.*` fields. */
function orderFapiaoFields(input: unknown): PaymentFields {
  const f = obj(input);
  if (!Object.keys(f).length) return {};
  const type = typeof f.type === "object" ? obj(f.type).id : f.type;
  const values = { ...f, type } as Record<string, unknown>;
  return Object.fromEntries(Object.entries(ORDER_FAPIAO_FIELD).map(([key, name]) => [name, text(values[key])]));
}
