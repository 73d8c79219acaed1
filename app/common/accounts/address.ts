// Address rules (spec 2 §5 "Address"), shared by the account form, the payment form and the API.
import * as z from "zod/mini";
import "../validation-messages";

export * from "./address-state";

const m = (key: string) => ({ error: `account:address.errors.${key}` });
const optionalText = (max: number, key: string) => z.optional(z.string().check(z.trim(), z.maxLength(max, m(key))));

export const ADDRESS_LABELS = ["billing", "invoice"] as const;

export const addressSchema = z.object({
  label: z.enum(ADDRESS_LABELS, m("labelRequired")),
  name: z.string(m("nameRequired")).check(z.trim(), z.minLength(1, m("nameRequired")), z.maxLength(50, m("nameTooLong"))),
  organization: optionalText(60, "organizationTooLong"),
  address1: z.string(m("address1Required")).check(z.trim(), z.minLength(1, m("address1Required")), z.maxLength(100, m("address1TooLong"))),
  address2: optionalText(100, "address2TooLong"),
  city: z.string(m("cityRequired")).check(z.trim(), z.minLength(1, m("cityRequired")), z.maxLength(40, m("cityTooLong"))),
  state: optionalText(30, "stateTooLong"),
  zip: optionalText(20, "zipTooLong"),
  country: z.string(m("countryRequired")).check(z.length(2, m("countryRequired"))),
  phone: z.optional(z.string().check(z.trim(), z.maxLength(20, m("phoneInvalid")), z.regex(/^[0-9+()\-\s]*$/, m("phoneInvalid")))),
  vat: optionalText(30, "vatTooLong"),
});

export type AddressInput = z.output<typeof addressSchema>;
export type AddressFields = z.input<typeof addressSchema>;
