// The fapiao's lists, limits and order-form field names without the schemas (./schemas.ts): what the payment form's
// fapiao section needs in the browser (ADR 083).
export const FAPIAO_TYPES = ["general", "special"] as const;
export type FapiaoType = (typeof FAPIAO_TYPES)[number];
/** What the fapiao's line says was sold (fapiao:serviceTypes.*). */
export const FAPIAO_SERVICE_TYPES = ["editing", "translation", "technical", "consulting"] as const;
/** How soon a stored fapiao is wanted (fapiao:timelines.*): with the month's batch, or within 5 working days. */
export const FAPIAO_DELIVERY_TIMELINES = ["monthly", "express"] as const;
export const FAPIAO_STATUSES = ["requested", "issued", "cancelled"] as const;

export const ORGANIZATION_NAME_MIN = 2;
export const ORGANIZATION_NAME_MAX = 100;
export const CONTACT_PHONE_MAX = 15;
export const TITLE_MAX = 100;
export const INSTRUCTIONS_MAX = 500;
export const SHIPPING_ADDRESS_MAX = 300;
export const FAPIAO_NUMBER_MAX = 40;
/** Suggestions of organisation names: asked from 2 characters, at most 10 (GET /api/fapiao/organizations). */
export const ORGANIZATION_QUERY_MIN = 2;
export const ORGANIZATION_SUGGESTIONS_MAX = 10;

/** The field names of the order fapiao inside the payment form (the API's `fapiao` object maps to them). */
export const ORDER_FAPIAO_FIELD = {
  type: "fapiao.type",
  serviceType: "fapiao.serviceType",
  organizationName: "fapiao.organizationName",
  taxpayerNumber: "fapiao.taxpayerNumber",
  contactEmail: "fapiao.contactEmail",
  contactPhone: "fapiao.contactPhone",
  shippingAddress: "fapiao.shippingAddress",
} as const;

export interface OrderFapiaoInput {
  type: FapiaoType;
  serviceType: string;
  organizationName: string;
  taxpayerNumber: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  shippingAddress: string | null;
}
