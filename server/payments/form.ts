// The shared payment form's server side (issue 12 §1, ADR 035): what the form needs to render (methods from
// rules, the user's saved addresses, countries with their states, currencies) and the check of a submission
// by the chosen method's facts (spec 2 §5, §6). Pages, the wizard's payment step and the API all parse here.
import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import {
  BRAZIL_CHOICES,
  BRAZIL_ISO2,
  INSTALLMENTS_MAX,
  PAYMENT_METHOD,
  PURCHASE_ORDER_MAX,
  methodFacts,
  type BrazilChoice,
} from "#common/payments/methods";
import { ADDRESS_FIELDS, addressGiven, checkAddress, checkPhone, type CountryChoice, type RawAddress } from "#common/payments/address";
import {
  PAYMENT_FIELD as F,
  addressFieldName,
  type AddressForm,
  type PaymentFields,
  type PaymentFormData,
  type SavedAddress,
} from "#common/payments/schemas";
import { normalizeTaxNumber, parseTaxId } from "#common/payments/tax-id";
import type { PaymentAddress, PaymentSubmission } from "#common/payments/types";
import type { DB } from "../db";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { currencyName } from "#common/format";
import { convertMinor, USD } from "#common/money";
import type { Scope } from "../scope";
import { listAddresses } from "../accounts/addresses";
import { offeredMethods } from "./offer";
import { offersBrazilChoice } from "./rules";
import { NO_BALANCES, balancePlan } from "./balances";
import type { BalanceChoice, BalancePanel } from "#common/payments/balances";
import type { FieldErrors } from "#common/result";

/**
 * The balance panel for a payment of `subtotal` (issue 13): with a refused choice (a partial amount above the
 * maximum) the panel as if no prepayment were chosen, and the refusal's field errors.
 */
export async function panelFor(
  scope: Scope,
  subtotal: number,
  currencyIso: string,
  choice: BalanceChoice,
): Promise<{ panel: BalancePanel | null; errors: FieldErrors | null }> {
  if (subtotal <= 0) return { panel: null, errors: null };
  const plan = await balancePlan(scope, subtotal, currencyIso, choice);
  if (plan.ok) return { panel: plan.value, errors: null };
  const fallback = await balancePlan(scope, subtotal, currencyIso, { ...choice, prepayOption: "none" });
  return { panel: fallback.ok ? fallback.value : null, errors: plan.fieldErrors };
}
import { orderFapiaoState } from "../fapiao";
import { checkOrderFapiao } from "#common/fapiao/schemas";

const E = (code: string) => `payment:errors.${code}`;

/** Countries with their states, named in the page's language (ICU data) and sorted for it. */
export async function countriesWithStates(db: DB, lang: SiteLang): Promise<CountryChoice[]> {
  const [countries, states] = await Promise.all([
    db.selectFrom("countries").select(["id", "iso2", "name"]).execute(),
    db.selectFrom("states").select(["country_id", "code", "name"]).orderBy("name").execute(),
  ]);
  const byCountry = new Map<number, { code: string; name: string }[]>();
  for (const s of states) byCountry.set(s.country_id, [...(byCountry.get(s.country_id) ?? []), { code: s.code, name: s.name }]);
  const tag = LANG_TAG[lang];
  const names = new Intl.DisplayNames([tag], { type: "region", fallback: "none" });
  const nameOf = (iso2: string, fallback: string) => {
    try {
      return names.of(iso2) ?? fallback;
    } catch {
      return fallback;
    }
  };
  return countries
    .map((c) => ({ id: c.id, iso2: c.iso2, name: nameOf(c.iso2, c.name), states: byCountry.get(c.id) ?? [] }))
    .sort((a, b) => a.name.localeCompare(b.name, tag));
}

/** The currencies a charge may be made in (CNY is not selectable, spec 2 §9), named in the page's language. */
export async function paymentCurrencies(db: DB, lang: SiteLang): Promise<{ isoCode: string; shortName: string }[]> {
  const rows = await db
    .selectFrom("currencies")
    .select(["iso_code", "name"])
    .where("selectable", "=", true)
    .orderBy("sort_order")
    .execute();
  return rows.map((r) => ({ isoCode: r.iso_code, shortName: currencyName(r.iso_code, lang, r.name) }));
}

export async function savedAddresses(scope: Scope): Promise<SavedAddress[]> {
  if (!scope.userId) return [];
  return (await listAddresses(scope.app.db, scope.userId)).map((a) => ({
    id: a.id,
    label: a.label,
    name: a.name,
    organization: a.organization,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    state: a.state,
    zip: a.zip,
    countryId: a.country.id,
    phone: a.phone,
    vat: a.vat,
  }));
}

export interface PaymentFormTarget {
  purpose: PaymentFormData["purpose"];
  /** Amount due in minor units, and its currency. */
  total: number;
  currencyIso: string;
  /** The methods offered (server/payments/rules.ts), in order, with whether each provider is a sandbox. */
  methods: PaymentFormData["methods"];
  /** How many invoices the form pays (the pay page): the order fapiao needs exactly one. */
  invoiceCount?: number;
}

/** Everything the form renders. A fresh idempotency key each load: one page, one payment. */
export async function loadPaymentForm(scope: Scope, target: PaymentFormTarget): Promise<PaymentFormData> {
  const [countries, currencies, addresses, user, fapiao] = await Promise.all([
    scope.memo(`payment:countries:${scope.lang}`, () => countriesWithStates(scope.app.db, scope.lang)),
    scope.memo(`payment:currencies:${scope.lang}`, () => paymentCurrencies(scope.app.db, scope.lang)),
    savedAddresses(scope),
    scope.userId
      ? scope.app.db.selectFrom("users").select(["country_id", "voucher_available"]).where("id", "=", scope.userId).executeTakeFirst()
      : Promise.resolve(undefined),
    // The order fapiao attaches to the invoice the payment makes or pays: orders and invoices only.
    target.purpose === "order" || target.purpose === "invoices" ? orderFapiaoState(scope, { invoiceCount: target.invoiceCount }) : null,
  ]);
  // Nothing due: the method is free (or the voucher that covered it, as the rules say) and no other shows (spec 2 §4).
  const methods =
    target.total <= 0 && !target.methods.some((m) => m.id === PAYMENT_METHOD.free || m.id === PAYMENT_METHOD.voucher)
      ? [{ id: PAYMENT_METHOD.free, sandbox: false, disabled: false }]
      : target.methods;
  return {
    purpose: target.purpose,
    methods,
    savedAddresses: addresses,
    countries,
    currencies,
    userCountryId: user?.country_id ?? null,
    /** Vouchers may be applied by this account (spec 2 §6 voucherAvailable). */
    voucherAvailable: Boolean(user?.voucher_available),
    brazilCountryId: countries.find((c) => c.iso2 === BRAZIL_ISO2)?.id ?? null,
    // The localisation offers the Brazilian methods (before the choice every method is offered).
    brazilChoice: target.total > 0 && offersBrazilChoice(methods.map((m) => m.id)),
    total: target.total,
    currencyIso: target.currencyIso,
    idempotencyKey: randomUUID(),
    // The question applies only where a method that can issue a fapiao is offered (issue 21 defect 7): asked
    // beside card and PayPal alone, 'yes' could only be refused.
    fapiao: fapiao && methods.some((m) => !m.disabled && methodFacts(m.id).supportsFapiao) ? fapiao : null,
  };
}

const rawAddress = (fields: PaymentFields, form: AddressForm): RawAddress =>
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, (fields[addressFieldName(form, f)] ?? "").trim()])) as unknown as RawAddress;

/** A chosen saved address's own fields (another user's id is not in the list: "not found"). */
function fromSaved(saved: SavedAddress): RawAddress {
  const s = (v: string | null) => v ?? "";
  return {
    addressId: String(saved.id),
    name: s(saved.name),
    organization: s(saved.organization),
    address1: saved.address1,
    address2: s(saved.address2),
    city: saved.city,
    state: s(saved.state),
    zip: s(saved.zip),
    countryId: String(saved.countryId),
    phone: s(saved.phone),
    vat: s(saved.vat),
  };
}

/**
 * Checks a submission of the form by the chosen method's facts (spec 2 §5, §6): every failing field at once,
 * keyed by the form's field names, the messages translation keys of the `payment` namespace.
 */
export function parsePaymentSubmission(fields: PaymentFields, form: PaymentFormData): Result<PaymentSubmission> {
  const v = (name: string) => (fields[name] ?? "").trim();
  const on = (name: string) => v(name) === "on" || v(name) === "true";
  const errors: Record<string, string> = {};
  const methodId = Number(v(F.method));
  // No method, or one not offered here: the whole submission is refused (the API's answer since issue 10).
  if (!form.methods.some((m) => m.id === methodId && !m.disabled)) return fail("payment-method-required");
  const offered = true;
  const facts = methodFacts(methodId);
  if (!on(F.terms)) errors[F.terms] = E("payment-accept-terms-and-conditions-failure");

  const purchaseOrder = facts.billedByInvoice && methodId === PAYMENT_METHOD.bankTransfer ? v(F.purchaseOrder) : "";
  if (purchaseOrder.length > PURCHASE_ORDER_MAX) errors[F.purchaseOrder] = E("purchase-order-too-long");

  let installments: number | null = null;
  if (facts.installments) {
    installments = Number(v(F.installments));
    if (!Number.isInteger(installments) || installments < 1 || installments > INSTALLMENTS_MAX)
      errors[F.installments] = E("installments-invalid");
  }

  // The Brazil choice: FAPESP funds are paid in USD by a FAPESP method, Allpago by a Brazil-only one.
  let brazilChoice: BrazilChoice | null = null;
  let fapesp = "";
  if (form.brazilChoice && offered) {
    const choice = v(F.brazilChoice) as BrazilChoice;
    if (!BRAZIL_CHOICES.includes(choice)) errors[F.brazilChoice] = E("option-required");
    else {
      brazilChoice = choice;
      const fits = choice === "allpago" ? facts.brazilOnly : choice === "fapesp" ? facts.supportsFapesp : !facts.brazilOnly;
      if (!fits) errors[F.method] = E("payment-method-required");
      if (choice === "fapesp") {
        fapesp = v(F.fapespProcessNumber);
        if (!fapesp) errors[F.fapespProcessNumber] = E("fapesp-process-number-required");
        else if (fapesp.length > 40) errors[F.fapespProcessNumber] = E("fapesp-process-number-too-long");
      }
    }
  }

  let currencyIso: string | null = brazilChoice === "fapesp" ? "USD" : null;
  if (facts.supportsCurrencyChoice && brazilChoice !== "fapesp" && offered) {
    const chosen = v(F.currency);
    if (!form.currencies.some((c) => c.isoCode === chosen)) errors[F.currency] = E("currency-required");
    else currencyIso = chosen;
  }

  let taxId: PaymentSubmission["taxId"] = null;
  if (facts.requiresTaxId) {
    const type = v(F.taxType);
    const number = v(F.taxNumber);
    if (type !== "CPF" && type !== "CNPJ") errors[F.taxType] = E("tax-type-required");
    if (!normalizeTaxNumber(number)) errors[F.taxNumber] = E("tax-number-required");
    else if (type === "CPF" || type === "CNPJ") {
      taxId = parseTaxId(type, number);
      if (!taxId) errors[F.taxNumber] = E(type === "CPF" ? "cpf-invalid" : "cnpj-invalid");
    }
  }

  // The order fapiao (issue 13 §4): where it applies the question must be answered, 'yes' needs a method that
  // supports fapiao (the page then shows the choice again with the method cleared) and the fapiao's own fields.
  let requireFapiao = facts.supportsFapiao && on(F.requireFapiao);
  let fapiao: PaymentSubmission["fapiao"] = null;
  if (form.fapiao && !form.fapiao.disabled) {
    const answer = v(F.requireFapiao);
    if (answer !== "on" && answer !== "true" && answer !== "no") errors[F.requireFapiao] = "fapiao:errors.option-required";
    else if (answer !== "no") {
      if (!facts.supportsFapiao) errors[F.method] = "fapiao:errors.method-not-fapiao";
      const checked = checkOrderFapiao(fields);
      Object.assign(errors, checked.errors);
      fapiao = checked.value;
      requireFapiao = facts.supportsFapiao;
    }
  } else if (form.fapiao) requireFapiao = false;

  const address = offered
    ? readAddress(fields, "address", facts.address === "invoice" ? "invoice" : "billing", form, requireFapiao, errors)
    : null;
  const differs = offered && facts.address === "billing" && on(F.invoiceAddressDiffers);
  const invoiceAddress = differs ? readAddress(fields, "invoiceAddress", "invoice", form, false, errors) : null;

  if (Object.keys(errors).length > 0) return invalid(errors);
  return ok({
    paymentMethodId: methodId,
    acceptTerms: true,
    purchaseOrder: purchaseOrder || null,
    nonce: facts.provider === "card" ? v(F.nonce) || null : null,
    installments,
    checkoutId: facts.provider === "allpago" ? v(F.checkoutId) || null : null,
    brazilChoice,
    fapespProcessNumber: fapesp || null,
    grantNumber: v(F.grantNumber).slice(0, 60) || null,
    currencyIso,
    address,
    invoiceAddressSameAsBilling: !differs,
    invoiceAddress,
    taxId,
    // The balance panel posts yes / no (spec 2 §4); the API's tick is "on".
    useCredits: on(F.useCredits) || v(F.useCredits) === "yes",
    prepayOption: (["fullPayment", "partialPayment"] as const).find((o) => o === v(F.prepayOption)) ?? "none",
    prepayAmount: v(F.prepayAmount) || null,
    requireFapiao,
    fapiao,
  });

  function readAddress(
    all: PaymentFields,
    name: AddressForm,
    label: "billing" | "invoice",
    data: PaymentFormData,
    fapiao: boolean,
    errs: Record<string, string>,
  ): PaymentAddress | null {
    let raw = rawAddress(all, name);
    if (raw.addressId) {
      const saved = data.savedAddresses.find((a) => String(a.id) === raw.addressId);
      if (!saved) {
        errs[addressFieldName(name, "addressId")] = E("address-not-found");
        return null;
      }
      raw = fromSaved(saved);
    }
    // Methods without an address may still ask for the payer's name (Alipay, WeChat) or phone (UnionPay).
    if (facts.address === "none" && name === "address") return contactOnly(raw, fapiao, errs);
    // A bank transfer's invoice address is optional: the invoice then carries the account's details.
    if (label === "invoice" && name === "address" && !addressGiven(raw)) return null;
    const r = checkAddress(raw, { facts, label, requireFapiao: fapiao, countries: data.countries, brazilId: data.brazilCountryId });
    for (const [field, key] of Object.entries(r.errors)) errs[addressFieldName(name, field)] = key;
    return r.address;
  }

  function contactOnly(raw: RawAddress, fapiao: boolean, errs: Record<string, string>): PaymentAddress | null {
    if (!facts.showsName && !facts.requiresPhone && !fapiao) return null;
    if (facts.showsName && !raw.name) errs["address.name"] = E("name-required");
    else if (raw.name.length > 50) errs["address.name"] = E("name-too-long");
    const phone = checkPhone(raw.phone, facts.requiresPhone || fapiao, fapiao);
    if (phone) errs["address.phone"] = phone;
    return {
      addressId: null,
      name: raw.name || null,
      organization: null,
      address1: "",
      address2: null,
      city: "",
      state: null,
      zip: null,
      countryId: form.userCountryId ?? 0,
      phone: raw.phone || null,
      vat: null,
    };
  }
}

/**
 * A key for a post that brought none (an older page or client): what it pays for and what it posted, so a
 * resent identical post is still one payment.
 */
export function derivedIdempotencyKey(scopeKey: string, fields: PaymentFields): string {
  const sorted = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("&");
  return `${scopeKey}:${createHash("sha256").update(sorted).digest("hex").slice(0, 32)}`;
}

/** The page's idempotency key (made by its loader), or null when missing or malformed. */
export function idempotencyKeyOf(value: string | null | undefined): string | null {
  const key = (value ?? "").trim();
  return key.length >= 8 && key.length <= 255 && /^[\w.:-]+$/.test(key) ? key : null;
}

// ---- The forms' targets: unpaid invoices (the pay-many page); an order form's is orders' (server/orders/pay.ts) ----

export interface PayoffInvoice {
  invoiceNumber: string;
  balance: number;
  currencyIso: string;
}

export interface Payoff {
  invoices: PayoffInvoice[];
  /** The sum shown: in the invoices' currency, or in USD when their currencies differ (spec 2 §2 "Pay screen"). */
  total: number;
  currency: { isoCode: string; sign: string; numDecimals: number };
  /** Each invoice's balance in the shown currency. */
  shown: Record<string, number>;
  data: PaymentFormData;
}

/** Comma-joined invoice numbers of the pay-many path, each once. */
export const invoiceNumbersOf = (param: string): string[] =>
  [
    ...new Set(
      param
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ].slice(0, 50);

/**
 * The pay-many page's invoices: each the acting user's, unpaid (balance above 0, no pending write-off). Any
 * other (unknown, another user's, already paid) makes the whole request "not found".
 */
export async function loadPayoff(
  scope: Scope,
  invoiceNumbers: string[],
  choice: BalanceChoice = NO_BALANCES,
): Promise<Result<Payoff & { balanceErrors: FieldErrors | null }>> {
  if (!scope.userId || invoiceNumbers.length === 0) return fail("not-found");
  const rows = await scope.app.db
    .selectFrom("invoices as i")
    .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
    .select(["i.number", "i.balance", "i.currency_iso", "i.status", "i.pending_writeoff", "c.num_decimals"])
    .select((eb) =>
      eb
        .selectFrom("exchange_rates as r")
        .select("r.rate")
        .whereRef("r.iso_code", "=", "i.currency_iso")
        // The rate the charge will use (invoicesTotal): in force today, not one announced for later.
        .where("r.effective_on", "<=", sql<string>`current_date`)
        .orderBy("r.effective_on", "desc")
        .limit(1)
        .as("rate"),
    )
    .where("i.user_id", "=", scope.userId)
    // Order invoices: a prepayment is paid through prepay's own form (ADR 058).
    .where("i.kind", "=", "order")
    .where("i.number", "in", invoiceNumbers)
    .execute();
  const unpaid = rows.filter((r) => Number(r.balance) > 0 && !r.pending_writeoff && r.status !== "paid" && r.status !== "void");
  if (unpaid.length !== invoiceNumbers.length) return fail("not-found");
  const byNumber = new Map(unpaid.map((r) => [r.number, r]));
  const ordered = invoiceNumbers.map((n) => byNumber.get(n)!);
  const currencies = new Set(ordered.map((r) => r.currency_iso));
  const same = currencies.size === 1;
  const currencyIso = same ? ordered[0].currency_iso : "USD";
  // Shown only: the charge's own amount is computed by the payment service from the invoices, each rounded up
  // to the cent (invoicesTotal); the page rounds the same way so that it shows what will be charged.
  const toUsdCents = (r: (typeof ordered)[number]) =>
    convertMinor(Number(r.balance), { isoCode: r.currency_iso.trim(), numDecimals: r.num_decimals, rate: r.rate ?? "1" }, USD, "up");
  const shown = Object.fromEntries(ordered.map((r) => [r.number, same ? Number(r.balance) : toUsdCents(r)]));
  const total = Object.values(shown).reduce((a, b) => a + b, 0);
  const { panel, errors } = await panelFor(scope, total, currencyIso, choice);
  const payable = panel ? panel.payable : total;
  const [data, currency] = await Promise.all([
    loadPaymentForm(scope, {
      purpose: "invoices",
      total: payable,
      currencyIso,
      methods: await offeredMethods(scope, { purpose: "invoices", total: payable, currencyIso }),
      invoiceCount: ordered.length,
    }),
    scope.app.db.selectFrom("currencies").select(["sign", "num_decimals"]).where("iso_code", "=", currencyIso).executeTakeFirstOrThrow(),
  ]);
  return ok({
    invoices: ordered.map((r) => ({ invoiceNumber: r.number, balance: Number(r.balance), currencyIso: r.currency_iso })),
    total,
    currency: { isoCode: currencyIso, sign: currency.sign, numDecimals: currency.num_decimals },
    shown,
    data: { ...data, balances: panel },
    balanceErrors: errors,
  });
}

/** The prepay page's form (issue 13 §1): purpose `prepay`, the amount locked in the user's currency. */
export async function prepayPaymentForm(
  scope: Scope,
  total: number,
  currencyIso: string,
  options: { existing?: boolean } = {},
): Promise<PaymentFormData> {
  const methods = (await offeredMethods(scope, { purpose: "prepay", total })).filter((m) => !excludedForExisting(options, m.id));
  return loadPaymentForm(scope, { purpose: "prepay", total, currencyIso, methods });
}

/**
 * An issued retainer invoice is already billed: paying it "by bank transfer" again would only issue the same
 * instructions, so its page offers the methods that pay at once (the transfer details stay on the page).
 */
export const excludedForExisting = (options: { existing?: boolean }, methodId: number) =>
  Boolean(options.existing) && methodId === PAYMENT_METHOD.bankTransfer;
