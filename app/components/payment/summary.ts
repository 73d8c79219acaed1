// The payment form's error summary entries (issue 22 item 6, ADR 067): each refused field of the form's one schema
// (paymentFormSchema, app/common/payments/form-schema.ts) as "label: message", linking to the control's id
// (`pf-<name>` as fields.tsx makes it), in the order of the form. Rendered by ErrorSummary (app/components/form.tsx)
// exactly as the registration and account forms do.
import type { SummaryEntry } from "#app/components/form";
import { ADDRESS_FORMS, PAYMENT_FIELD as F } from "#common/payments/fields";
import { ORDER_FAPIAO_FIELD as O } from "#common/fapiao/fields";

type T = (key: string, options?: Record<string, unknown>) => string;

/** The control id of a payment field (fields.tsx's `pf-` ids; the method's first radio, the terms checkbox). */
export const paymentFieldId = (name: string) => `pf-${name.replace(/\./g, "-")}`;

/** The label keys of the fields, in the order the form shows them (payment namespace unless prefixed). */
const LABELS: [string, string][] = [
  [F.prepayAmount, "credits:panel.prepayLegend"],
  [F.prepayOption, "credits:panel.prepayLegend"],
  [F.useCredits, "credits:panel.creditsLegend"],
  [F.brazilChoice, "brazil.legend"],
  [F.fapespProcessNumber, "brazil.fapespNumber"],
  [F.method, "method.legend"],
  [F.purchaseOrder, "method.purchaseOrder"],
  [F.nonce, "methods.3"],
  [F.currency, "card.currency"],
  [F.installments, "allpago.installments"],
  [F.checkoutId, "allpago.installments"],
  [F.taxType, "tax.type"],
  [F.taxNumber, "tax.number"],
  ...ADDRESS_FORMS.flatMap((form) =>
    ["addressId", "name", "organization", "address1", "address2", "city", "state", "zip", "countryId", "phone", "vat"].map(
      (field): [string, string] => [`${form}.${field}`, field === "addressId" ? "address.saved" : `address.${field}`],
    ),
  ),
  [F.requireFapiao, "fapiao:order.question"],
  [O.type, "fapiao:form.type"],
  [O.serviceType, "fapiao:form.serviceType"],
  [O.organizationName, "fapiao:form.organizationName"],
  [O.taxpayerNumber, "fapiao:form.taxpayerNumber"],
  [O.contactEmail, "fapiao:form.contactEmail"],
  [O.contactPhone, "fapiao:form.contactPhone"],
  [O.shippingAddress, "fapiao:form.shippingAddress"],
  [F.terms, "terms.accept"],
];

/**
 * The summary's entries for the refused fields this form shows (`shown`); an invoice-address field's label
 * names its block ("Invoice address — City").
 */
export function paymentSummary(errors: Record<string, string>, shown: (name: string) => boolean, t: T): SummaryEntry[] {
  return LABELS.filter(([name]) => errors[name] && shown(name)).map(([name, key]) => {
    const label = name.startsWith("invoiceAddress.") ? `${t("address.invoice")} — ${t(key)}` : t(key);
    return { id: paymentFieldId(name), label, message: t(errors[name]) };
  });
}

/** Whether the summary knows the field (a field it does not know is said in the form's other alert). */
export const listedField = (name: string) => LABELS.some(([n]) => n === name);
