// Payment methods (spec 2 §3 "payment method codes", spec 2 §6 "Payment method helpers"): their codes and what
// each one needs from the payment form. Isomorphic: the form component shows fields from these facts, the
// server validates by the same facts (server/payments/form.ts) and decides which methods are offered
// (server/payments/rules.ts).
export const PAYMENT_METHOD = {
  credits: 1,
  creditCard: 3,
  free: 4,
  paypal: 6,
  bankTransfer: 9,
  alipay: 19,
  boleto: 20,
  unionpay: 21,
  allpagoPaypal: 22,
  allpagoCard: 23,
  wechat: 25,
  voucher: 26,
  /** The Chinese local entity's (WFOE) bank transfer, billed by its own invoice (ADR 034). */
  localEntityTransfer: 27,
  /** The Chinese local entity's (WFOE) corporate online payment, billed by its own invoice (ADR 034). */
  localEntityOnline: 28,
} as const;

export type PaymentMethodId = (typeof PAYMENT_METHOD)[keyof typeof PAYMENT_METHOD];
export const PAYMENT_METHOD_IDS: readonly number[] = Object.values(PAYMENT_METHOD);
export const isPaymentMethodId = (v: unknown): v is PaymentMethodId => typeof v === "number" && PAYMENT_METHOD_IDS.includes(v);

/** Who carries the money: an external provider (behind server/payments/providers), or the portal itself. */
export type ProviderId = "card" | "paypal" | "alipay" | "wechat" | "unionpay" | "boleto" | "allpago";

export interface MethodFacts {
  /** The provider that takes the money; null: no provider (invoice, credits, voucher, free). */
  provider: ProviderId | null;
  /** Paid later against an invoice number (bank transfers). */
  billedByInvoice: boolean;
  /** Settles while the researcher waits (a card sale, credits, a voucher); else awaits the provider. */
  synchronous: boolean;
  /** Needs JavaScript on the researcher's page (hosted card fields, the Allpago widget). */
  needsScript: boolean;
  supportsFapiao: boolean;
  supportsFapesp: boolean;
  /** The researcher may choose the currency of the charge. */
  supportsCurrencyChoice: boolean;
  /** Which address the form asks for: the billing address, the invoice address, or none. */
  address: "billing" | "invoice" | "none";
  /** The address's name field is shown (and then required). */
  showsName: boolean;
  requiresOrganization: boolean;
  requiresPhone: boolean;
  /** The address's country is fixed to Brazil (BRAZIL_ISO2) and the zip is a CEP (nnnnn-nnn). */
  brazilOnly: boolean;
  /** CPF/CNPJ tax identification is asked for. */
  requiresTaxId: boolean;
  /** Installments 1–6 are offered. */
  installments: boolean;
  /** The only currencies the provider can charge in (a boleto is a Brazilian bank slip: reais); null: any. */
  currencies: readonly string[] | null;
}

const base: MethodFacts = {
  provider: null,
  billedByInvoice: false,
  synchronous: true,
  needsScript: false,
  supportsFapiao: false,
  supportsFapesp: false,
  supportsCurrencyChoice: false,
  address: "none",
  showsName: false,
  requiresOrganization: false,
  requiresPhone: false,
  brazilOnly: false,
  requiresTaxId: false,
  installments: false,
  currencies: null,
};

export const METHOD_FACTS: Record<PaymentMethodId, MethodFacts> = {
  [PAYMENT_METHOD.credits]: base,
  [PAYMENT_METHOD.free]: base,
  [PAYMENT_METHOD.voucher]: base,
  [PAYMENT_METHOD.creditCard]: {
    ...base,
    provider: "card",
    needsScript: true,
    supportsFapesp: true,
    supportsCurrencyChoice: true,
    address: "billing",
  },
  [PAYMENT_METHOD.paypal]: { ...base, provider: "paypal", synchronous: false, address: "billing" },
  [PAYMENT_METHOD.bankTransfer]: {
    ...base,
    billedByInvoice: true,
    synchronous: false,
    supportsFapiao: true,
    supportsFapesp: true,
    address: "invoice",
  },
  [PAYMENT_METHOD.alipay]: { ...base, provider: "alipay", synchronous: false, supportsFapiao: true, showsName: true },
  [PAYMENT_METHOD.boleto]: {
    ...base,
    provider: "boleto",
    synchronous: false,
    address: "billing",
    showsName: true,
    brazilOnly: true,
    requiresTaxId: true,
    currencies: ["BRL"],
  },
  [PAYMENT_METHOD.unionpay]: {
    ...base,
    provider: "unionpay",
    synchronous: false,
    supportsFapiao: true,
    showsName: true,
    requiresPhone: true,
  },
  [PAYMENT_METHOD.allpagoPaypal]: {
    ...base,
    provider: "allpago",
    synchronous: false,
    address: "billing",
    brazilOnly: true,
    requiresTaxId: true,
  },
  [PAYMENT_METHOD.allpagoCard]: {
    ...base,
    provider: "allpago",
    synchronous: false,
    needsScript: true,
    address: "billing",
    showsName: true,
    brazilOnly: true,
    requiresTaxId: true,
    installments: true,
  },
  [PAYMENT_METHOD.wechat]: { ...base, provider: "wechat", synchronous: false, showsName: true },
  [PAYMENT_METHOD.localEntityTransfer]: { ...base, billedByInvoice: true, synchronous: false },
  [PAYMENT_METHOD.localEntityOnline]: { ...base, billedByInvoice: true, synchronous: false },
};

export const methodFacts = (id: number): MethodFacts => METHOD_FACTS[id as PaymentMethodId] ?? base;

/**
 * Brazil, the only country of the Brazil-only methods (spec 2 §6 names it by its id in the original data, 32;
 * our country ids are drawn by the database, so the portal names it by ISO code).
 */
export const BRAZIL_ISO2 = "BR";
export const INSTALLMENTS_MAX = 6;
export const PURCHASE_ORDER_MAX = 60;

/** The Brazil choice (spec 2 §4): international methods, FAPESP funds (USD), or the local Allpago methods. */
export const BRAZIL_CHOICES = ["no-requirements", "fapesp", "allpago"] as const;
export type BrazilChoice = (typeof BRAZIL_CHOICES)[number];

/**
 * The currency a Brazil choice fixes for the whole purchase, or null: FAPESP funds are granted and accounted in
 * US dollars (spec 2 §4), so the order, its invoice and the payment are all in USD (issue 21 §2, ADR 052).
 */
export function fixedCurrencyOf(choice: BrazilChoice | null | undefined): string | null {
  return choice === "fapesp" ? "USD" : null;
}

/** What a payment form is paying for; each has its own exclusions (spec 2 §6, spec 3 §6). */
export const PAYMENT_PURPOSES = ["order", "invoices", "prepay", "digital"] as const;
export type PaymentPurposeName = (typeof PAYMENT_PURPOSES)[number];
