// Address rules of the payment form (spec 2 §5 "Address", "Phone", "Zip"; §6 "Payment method helpers").
// Isomorphic: the form renders its limits from here, the server (server/payments/form.ts) checks by them.
// Messages are translation keys of the `payment` namespace.
import type { MethodFacts } from "./methods";
import type { PaymentAddress } from "./types";

export const ADDRESS_LIMITS = {
  name: 50,
  organization: 60,
  address1: 100,
  address2: 100,
  city: 40,
  state: 30,
  zip: 9,
  phoneMin: 7,
  phoneMax: 25,
  vat: 30,
} as const;

/** The address's text fields as posted (trimmed; empty means not given). */
export interface RawAddress {
  addressId: string;
  name: string;
  organization: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  countryId: string;
  phone: string;
  vat: string;
}

export const ADDRESS_FIELDS = [
  "addressId",
  "name",
  "organization",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
  "countryId",
  "phone",
  "vat",
] as const satisfies readonly (keyof RawAddress)[];

export interface CountryChoice {
  id: number;
  iso2: string;
  name: string;
  /** The country's states (codes and names); empty: free text. */
  states: { code: string; name: string }[];
}

/** CEP: 8 digits shown nnnnn-nnn. */
export const CEP_PATTERN = /^\d{5}-?\d{3}$/;
/** Eleven digits: a Chinese mobile number, needed for a fapiao (spec 2 §5 "Phone"). */
export const FAPIAO_PHONE_PATTERN = /^\d{11}$/;

export interface AddressRules {
  facts: MethodFacts;
  /** "invoice": the invoice address form (its organization error is 'invoice-payer-name-required'). */
  label: "billing" | "invoice";
  requireFapiao: boolean;
  countries: CountryChoice[];
  /** The country the Brazil-only methods fix (found by BRAZIL_ISO2). */
  brazilId: number | null;
}

const E = (code: string) => `payment:errors.${code}`;

/** A state that is not in the chosen country's list is dropped (the country changed without JavaScript). */
export function stateForCountry(state: string, country: CountryChoice | undefined): string {
  if (!country || country.states.length === 0) return state;
  return country.states.some((s) => s.code === state) ? state : "";
}

/**
 * Checks one address by the method's facts. Returns the parsed address and the field errors (keyed by the
 * address's field names; the caller prefixes them with the address's form name).
 */
export function checkAddress(raw: RawAddress, rules: AddressRules): { address: PaymentAddress | null; errors: Record<string, string> } {
  const { facts } = rules;
  const errors: Record<string, string> = {};
  const tooLong = (field: keyof typeof ADDRESS_LIMITS & keyof RawAddress) => raw[field].length > ADDRESS_LIMITS[field];
  const countryId = facts.brazilOnly ? rules.brazilId : Number(raw.countryId) || null;
  const country = rules.countries.find((c) => c.id === countryId);

  if (facts.showsName) {
    if (!raw.name) errors.name = E(facts.provider === "boleto" ? "boleto-payer-required" : "name-required");
    else if (tooLong("name")) errors.name = E("name-too-long");
  }
  if (facts.requiresOrganization && !raw.organization)
    errors.organization = E(rules.label === "invoice" ? "invoice-payer-name-required" : "organization-required");
  else if (tooLong("organization")) errors.organization = E("organization-too-long");
  if (!raw.address1) errors.address1 = E("address1-required");
  else if (tooLong("address1")) errors.address1 = E("address1-too-long");
  if (tooLong("address2")) errors.address2 = E("address2-too-long");
  if (!raw.city) errors.city = E("city-required");
  else if (tooLong("city")) errors.city = E("city-too-long");
  if (!country) errors.countryId = E("country-required");
  const state = stateForCountry(raw.state, country);
  if (country && country.states.length > 0 && !state) errors.state = E("state-required");
  else if (tooLong("state")) errors.state = E("state-too-long");
  const zip = checkZip(raw.zip, facts.brazilOnly);
  if (zip.error) errors.zip = zip.error;
  const phone = checkPhone(raw.phone, facts.requiresPhone || rules.requireFapiao, rules.requireFapiao);
  if (phone) errors.phone = phone;
  if (tooLong("vat")) errors.vat = E("vat-too-long");

  if (Object.keys(errors).length > 0 || !country) return { address: null, errors };
  const orNull = (v: string) => v || null;
  return {
    address: {
      addressId: raw.addressId ? Number(raw.addressId) : null,
      name: facts.showsName ? raw.name : orNull(raw.name),
      organization: orNull(raw.organization),
      address1: raw.address1,
      address2: orNull(raw.address2),
      city: raw.city,
      state: orNull(state),
      zip: zip.value,
      countryId: country.id,
      phone: orNull(raw.phone),
      // VAT goes on invoices: asked with the invoice address (bank transfer).
      vat: rules.label === "invoice" ? orNull(raw.vat) : null,
    },
    errors,
  };
}

/** Zip: a CEP (nnnnn-nnn) for the Brazil-only methods, else optional, at most 9 characters. */
export function checkZip(zip: string, brazilOnly: boolean): { value: string | null; error: string | null } {
  if (brazilOnly) {
    if (!zip) return { value: null, error: E("zip-required") };
    if (!CEP_PATTERN.test(zip)) return { value: null, error: E("zip-cep") };
    const digits = zip.replace("-", "");
    return { value: `${digits.slice(0, 5)}-${digits.slice(5)}`, error: null };
  }
  if (zip.length > ADDRESS_LIMITS.zip) return { value: null, error: E("zip-too-long") };
  return { value: zip || null, error: null };
}

/** Phone: required when the method or a fapiao needs it; 11 digits for a fapiao; else 7–25 characters. */
export function checkPhone(phone: string, required: boolean, fapiao: boolean): string | null {
  if (!phone) return required ? E(fapiao ? "phone-fapiao" : "phone-required") : null;
  if (fapiao && !FAPIAO_PHONE_PATTERN.test(phone.replace(/[\s-]/g, ""))) return E("phone-fapiao");
  if (phone.length < ADDRESS_LIMITS.phoneMin || phone.length > ADDRESS_LIMITS.phoneMax) return E("phone-length");
  return null;
}

/** Whether any of the address's own fields was filled (a bank transfer's invoice address is optional). */
export const addressGiven = (raw: RawAddress) => ADDRESS_FIELDS.some((f) => f !== "countryId" && raw[f] !== "");
