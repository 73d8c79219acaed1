// The shared payment form's server side (issue 12 §1, ADR 035): what the form needs to render (methods from
// rules, the user's saved addresses, countries with their states, currencies). Those are also the facts its one
// schema is built from (`paymentFormSchema`, app/common/payments/form-schema.ts, ADR 060), with which the pages,
// the wizard's payment step and the API parse a submission.
import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { BRAZIL_ISO2, PAYMENT_METHOD, methodFacts } from "#common/payments/methods";
import type { CountryChoice } from "#common/payments/address";
import type { PaymentFields, PaymentFormData, SavedAddress } from "#common/payments/schemas";
import type { DB } from "../db";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { currencyName } from "#common/format";
import { convertMinor, USD } from "#common/money";
import type { Scope } from "../scope";
import { listAddresses } from "../accounts/addresses";
import { offeredMethods } from "./offer";
import { rememberedReference } from "../kernel/reference";
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

/** Countries with their states, named in the page's language (ICU data) and sorted for it. */
export function countriesWithStates(db: DB, lang: SiteLang): Promise<CountryChoice[]> {
  // The same for every payment page in a language: built once a minute per process, not per request (ADR 081).
  return rememberedReference(db, `countries-with-states:${lang}`, () => loadCountriesWithStates(db, lang));
}

async function loadCountriesWithStates(db: DB, lang: SiteLang): Promise<CountryChoice[]> {
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
  /** A converted invoice's USD base and rate as issued (ADR 052), shown beside its amount; null for USD. */
  usdBase: { usdTotal: number; exchangeRate: string; currencyIso: string } | null;
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
    .select(["i.number", "i.balance", "i.currency_iso", "i.status", "i.pending_writeoff", "c.num_decimals", "i.usd_total"])
    .select(sql<string | null>`i.exchange_rate::text`.as("exchange_rate"))
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
    invoices: ordered.map((r) => ({
      invoiceNumber: r.number,
      balance: Number(r.balance),
      currencyIso: r.currency_iso,
      usdBase:
        r.currency_iso.trim() !== "USD" && r.usd_total !== null && r.exchange_rate !== null
          ? { usdTotal: Number(r.usd_total), exchangeRate: r.exchange_rate, currencyIso: r.currency_iso.trim() }
          : null,
    })),
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
