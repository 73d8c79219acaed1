// The fapiao forms (spec 2 §3 "Fapiao", §5 rules, issue 13 §4): the order fapiao asked for inside the payment form,
// the stored fapiao of a paid invoice or prepayment, its cancellation, the staff's issue form, and the API's
// queries. Isomorphic: the page shows the same rules the server applies. Schemas stay lenient on values (every
// field is text) and the check functions report every failing field at once, as `fapiao:errors.<code>` keys.
import * as z from "zod/mini";
import { isTaxpayerNumber, normalizeTaxpayerNumber } from "./taxpayer";
import {
  FAPIAO_STATUSES,
  FAPIAO_TYPES,
  FAPIAO_SERVICE_TYPES,
  FAPIAO_DELIVERY_TIMELINES,
  ORGANIZATION_NAME_MIN,
  ORGANIZATION_NAME_MAX,
  CONTACT_PHONE_MAX,
  TITLE_MAX,
  INSTRUCTIONS_MAX,
  SHIPPING_ADDRESS_MAX,
  FAPIAO_NUMBER_MAX,
  ORDER_FAPIAO_FIELD,
  type FapiaoType,
  type OrderFapiaoInput,
} from "./fields";

export * from "./fields";

const E = (code: string) => `fapiao:errors.${code}`;
const LATIN = /[A-Za-z]/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const oneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/** The organisation's name as the fapiao prints it: 2–100 characters, written in Chinese (no Latin letters). */
export const organizationNameError = (name: string): string | null =>
  name.length < ORGANIZATION_NAME_MIN || name.length > ORGANIZATION_NAME_MAX || LATIN.test(name)
    ? E("fapiao-organization-name-error")
    : null;

/**
 * The order fapiao's fields (spec 2 §5 "Order fapiao form"): type, service type and organisation name always;
 * taxpayer number and mobile required for a special fapiao (the VAT rules), optional but checked for a general one.
 */
export function checkOrderFapiao(fields: Record<string, string | undefined>): {
  value: OrderFapiaoInput | null;
  errors: Record<string, string>;
} {
  const F = ORDER_FAPIAO_FIELD;
  const v = (name: string) => (fields[name] ?? "").trim();
  const errors: Record<string, string> = {};
  const type = v(F.type);
  if (!oneOf(FAPIAO_TYPES, type)) errors[F.type] = E("type-required");
  const serviceType = v(F.serviceType);
  if (!oneOf(FAPIAO_SERVICE_TYPES, serviceType)) errors[F.serviceType] = E("value-required");
  const organizationName = v(F.organizationName);
  const nameError = organizationNameError(organizationName);
  if (nameError) errors[F.organizationName] = nameError;
  const special = type === "special";
  const taxpayerNumber = normalizeTaxpayerNumber(v(F.taxpayerNumber));
  if (!taxpayerNumber) {
    if (special) errors[F.taxpayerNumber] = E("taxpayer-number-required");
  } else if (!isTaxpayerNumber(taxpayerNumber)) errors[F.taxpayerNumber] = E("fapiao-taxpayer-number-error");
  const contactEmail = v(F.contactEmail);
  if (contactEmail && (contactEmail.length > 254 || !EMAIL.test(contactEmail))) errors[F.contactEmail] = E("emailAddressInvalidFormat");
  const contactPhone = v(F.contactPhone);
  if (contactPhone.length > CONTACT_PHONE_MAX) errors[F.contactPhone] = E("phone-number-too-long");
  else if (special && !contactPhone) errors[F.contactPhone] = E("value-required");
  const shippingAddress = v(F.shippingAddress);
  if (shippingAddress.length > SHIPPING_ADDRESS_MAX) errors[F.shippingAddress] = E("shipping-address-too-long");
  if (Object.keys(errors).length) return { value: null, errors };
  return {
    value: {
      type: type as FapiaoType,
      serviceType,
      organizationName,
      taxpayerNumber: taxpayerNumber || null,
      contactEmail: contactEmail || null,
      contactPhone: contactPhone || null,
      shippingAddress: shippingAddress || null,
    },
    errors,
  };
}

const field = (max: number) => z.catch(z.optional(z.string().check(z.maxLength(max))), undefined);

/**
 * The stored fapiao form (the fapiao pages; POST /api/fapiao). The page takes the document's number from its path;
 * the API from `invoiceNumber` or `retainerInvoiceNumber`. `type` may come as the spec's `{ id }` object.
 */
export const storedFapiaoSchema = z.object({
  invoiceNumber: field(40),
  retainerInvoiceNumber: field(40),
  type: z.catch(
    z.optional(
      z.union([
        z.string().check(z.maxLength(20)),
        z.pipe(
          z.object({ id: z.string() }),
          z.transform((o) => o.id),
        ),
      ]),
    ),
    undefined,
  ),
  deliveryTimeline: field(20),
  title: field(200),
  taxpayerNumber: field(60),
  specialInstructions: field(1000),
});
export type StoredFapiaoForm = z.output<typeof storedFapiaoSchema>;

export interface StoredFapiaoInput {
  type: FapiaoType;
  deliveryTimeline: string;
  title: string;
  taxpayerNumber: string;
  specialInstructions: string | null;
}

/** The stored fapiao's rules (spec 2 §5 "Stored fapiao form"); the number's check character is verified too. */
export function checkStoredFapiao(form: StoredFapiaoForm): { value: StoredFapiaoInput | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const type = (form.type ?? "").trim();
  if (!oneOf(FAPIAO_TYPES, type)) errors.type = E("type-required");
  const deliveryTimeline = (form.deliveryTimeline ?? "").trim();
  if (!oneOf(FAPIAO_DELIVERY_TIMELINES, deliveryTimeline)) errors.deliveryTimeline = E("delivery-timeline-required");
  const title = (form.title ?? "").trim();
  if (!title) errors.title = E("title-required");
  else if (title.length > TITLE_MAX) errors.title = E("title-too-long");
  const taxpayerNumber = normalizeTaxpayerNumber(form.taxpayerNumber ?? "");
  if (!taxpayerNumber) errors.taxpayerNumber = E("taxpayer-number-required");
  else if (!isTaxpayerNumber(taxpayerNumber)) errors.taxpayerNumber = E("fapiao-taxpayer-number-error");
  const specialInstructions = (form.specialInstructions ?? "").trim();
  if (specialInstructions.length > INSTRUCTIONS_MAX) errors.specialInstructions = E("special-instructions-too-long");
  if (Object.keys(errors).length) return { value: null, errors };
  return {
    value: { type: type as FapiaoType, deliveryTimeline, title, taxpayerNumber, specialInstructions: specialInstructions || null },
    errors,
  };
}

/** The fapiao pages' forms: create (the stored form) or cancel (no-JS forms cannot send DELETE). */
export const fapiaoPageSchema = z.union([
  z.object({ intent: z.literal("cancel"), id: z.string().check(z.regex(/^\d{1,9}$/)) }),
  z.extend(storedFapiaoSchema, { intent: z.optional(z.literal("create")) }),
]);
export type FapiaoPageForm = z.output<typeof fapiaoPageSchema>;

/** GET /api/fapiao: every fapiao of the user, or ?context=Paddle (see server/fapiao/list.ts). */
export const fapiaoListQuery = z.object({ context: z.optional(z.enum(["Paddle"])) });
/** GET /api/fapiao/organizations?name= */
export const organizationsQuery = z.object({ name: z.catch(z.string().check(z.maxLength(100)), "") });
/** GET /staff/fapiaos?status= */
export const staffFapiaoListQuery = z.object({ status: z.catch(z.optional(z.enum(FAPIAO_STATUSES)), undefined) });
/** POST /staff/fapiaos/{id}: the text fields beside the PDF (intent issue), or a cancellation. */
export const staffFapiaoFields = z.object({
  intent: z.enum(["issue", "cancel"]),
  fapiaoNumber: z.catch(z.string().check(z.maxLength(200)), ""),
});
export type StaffFapiaoFields = z.output<typeof staffFapiaoFields>;

/** The fapiao's number as printed on it: digits (8 or 20), or letters and digits of the older forms. */
export const fapiaoNumberError = (n: string): string | null =>
  !n ? E("fapiao-number-required") : n.length > FAPIAO_NUMBER_MAX || !/^[0-9A-Z-]+$/.test(n) ? E("fapiao-number-invalid") : null;
