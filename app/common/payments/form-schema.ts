// The payment form's one schema (issue 21 §6, ADR 060): `paymentFormSchema(facts)` is built from what the page
// that showed the form offers — its methods, whether the Brazil choice and the order fapiao are asked, the
// currencies, the saved addresses — and parses the form's flat fields (the page's, or the API body mapped to them
// by `paymentBody`) into the submission the payment service takes. Its output type is the submission's type
// (`PaymentSubmission`, inferred here, not stated). The wizard's payment step, the pay-many page, the prepay page
// and their API endpoints all parse with it: a bad input gets the same translation key beside the same field.
//
// One transform rather than a `z.object` of fields: which fields count depends on the chosen method, and the form
// reports every failing field at once (a zod object stops before its cross-field checks when one field fails).
// Each field is still read by a small schema of its own, built from the facts.
import * as z from "zod/mini";
import { parseMajor } from "../money";
import { BRAZIL_CHOICES, INSTALLMENTS_MAX, PAYMENT_METHOD, PURCHASE_ORDER_MAX, methodFacts, type BrazilChoice } from "./methods";
import { ADDRESS_FIELDS, addressGiven, checkAddress, checkPhone, type RawAddress } from "./address";
import { PREPAY_OPTIONS, type BalanceChoice, type PrepayOption } from "./balances";
import { PAYMENT_FIELD as F, addressFieldName, type AddressForm, type PaymentFormData, type SavedAddress } from "./schemas";
import { normalizeTaxNumber, parseTaxId } from "./tax-id";
import type { PaymentAddress, TaxId } from "./types";
import { checkOrderFapiao, type OrderFapiaoInput } from "../fapiao/schemas";
import { errorCode, fail, invalid, ok, type FieldErrors, type Result } from "../result";

const E = (code: string) => `payment:errors.${code}`;

/** What the parse depends on: the facts of the form the page (or GET /api/payment/load) showed. */
export type PaymentFormFacts = Pick<
  PaymentFormData,
  "methods" | "brazilChoice" | "currencies" | "fapiao" | "savedAddresses" | "countries" | "brazilCountryId" | "userCountryId"
>;

/** The flat text fields a form posts (the API body mapped to the same names). */
const flatFields = z.record(z.string(), z.string());

/** A posted text: trimmed, missing is empty. */
const text = z.pipe(
  z.optional(z.string()),
  z.transform((v) => (v ?? "").trim()),
);

const TICKED = ["on", "true", "yes"];
const UNTICKED = ["", "no", "false", "off"];

/** A checkbox or yes/no: anything but the words a form or the API sends for them is refused with `message`. */
export const tickField = (message: string) =>
  z.pipe(
    text,
    z.transform((v, ctx) => {
      if (TICKED.includes(v)) return true;
      if (UNTICKED.includes(v)) return false;
      ctx.issues.push({ code: "custom", message, input: v });
      return z.NEVER;
    }),
  );

/** The method: one the page offers and does not show disabled. Anything else refuses the whole form. */
export function methodField(facts: Pick<PaymentFormFacts, "methods">) {
  const offered = new Set(facts.methods.filter((m) => !m.disabled).map((m) => String(m.id)));
  return z.pipe(text, z.pipe(z.string().check(z.refine((v) => offered.has(v), E("payment-method-required"))), z.transform(Number)));
}

/**
 * The order fapiao's question (issue 13 §4). Where it applies: yes or no, required. Where it does not (not asked,
 * or shown disabled because several invoices are paid): 'yes' is refused — nothing could honour it (issue 21
 * defect 7) — and 'no' or nothing is no.
 */
export function fapiaoAnswerField(facts: Pick<PaymentFormFacts, "fapiao">) {
  const asked = Boolean(facts.fapiao && !facts.fapiao.disabled);
  return z.pipe(
    text,
    z.transform((v, ctx): "yes" | "no" => {
      if (v === "on" || v === "true" || v === "yes") {
        if (asked) return "yes";
        ctx.issues.push({ code: "custom", message: "fapiao:errors.fapiao-not-offered", input: v });
        return z.NEVER;
      }
      if (v === "no" || v === "false" || (!asked && v === "")) return "no";
      ctx.issues.push({ code: "custom", message: "fapiao:errors.option-required", input: v });
      return z.NEVER;
    }),
  );
}

/** The Brazil choice, where the page asks it (the BR localisation). */
export const brazilChoiceField = z.pipe(
  text,
  z.pipe(
    z.string().check(z.refine((v) => (BRAZIL_CHOICES as readonly string[]).includes(v), E("option-required"))),
    z.transform((v) => v as BrazilChoice),
  ),
);

/** The currency a card is charged in: one of the page's list. */
export function currencyField(facts: Pick<PaymentFormFacts, "currencies">) {
  const isoCodes = new Set(facts.currencies.map((c) => c.isoCode));
  return z.pipe(text, z.string().check(z.refine((v) => isoCodes.has(v), E("currency-required"))));
}

/** Allpago's installments: a whole number from 1 to INSTALLMENTS_MAX. */
export const installmentsField = z.pipe(
  text,
  z.pipe(
    z.transform(Number),
    z.number(E("installments-invalid")).check(
      z.refine((n) => Number.isInteger(n), E("installments-invalid")),
      z.gte(1, E("installments-invalid")),
      z.lte(INSTALLMENTS_MAX, E("installments-invalid")),
    ),
  ),
);

/**
 * The most decimals a typed amount may have before its currency is known; the balance plan then checks it against
 * the currency's own (server/payments/balances.ts, ADR 054: "1.000" reais is refused there).
 */
const AMOUNT_DECIMALS_MAX = 3;

/**
 * The balance panel's choice (issue 13): "use my credits", the prepayment option and a partial amount. Static,
 * not built from the facts: the choice decides the facts (what is left to pay decides the methods offered), so it
 * is read first, on its own (`parseBalanceChoice`), and again as part of the whole form.
 */
export const balanceChoiceSchema = z.pipe(
  flatFields,
  z.transform((fields, ctx) => {
    const issue = (field: string, message: string) => ctx.issues.push({ code: "custom", message, input: fields[field], path: [field] });
    const credits = tickField(E("value-invalid")).safeParse(fields[F.useCredits]);
    if (!credits.success) issue(F.useCredits, E("value-invalid"));
    const option = text.parse(fields[F.prepayOption]) || "none";
    if (!(PREPAY_OPTIONS as readonly string[]).includes(option)) issue(F.prepayOption, E("option-required"));
    const prepayOption = option as PrepayOption;
    const prepayAmount = text.parse(fields[F.prepayAmount]) || null;
    // A partial amount: a plain positive number of at most 12 digits (no sign, no exponent, not NaN).
    if (prepayOption === "partialPayment" && parseMajor(prepayAmount ?? "", AMOUNT_DECIMALS_MAX) === null)
      issue(F.prepayAmount, E("prepay-amount-invalid"));
    return { useCredits: credits.success && credits.data, prepayOption, prepayAmount };
  }),
);

/** The form's facts as its one schema: flat fields in, the submission out (every failing field at once). */
export function paymentFormSchema(facts: PaymentFormFacts) {
  const method = methodField(facts);
  const fapiaoAnswer = fapiaoAnswerField(facts);
  const currency = currencyField(facts);
  return z.pipe(
    flatFields,
    z.transform((fields, ctx) => {
      /** A field read by its schema; a failure is its first message, beside the field. */
      function read<S extends z.ZodMiniType>(schema: S, name: string): z.output<S> | undefined {
        const r = schema.safeParse(fields[name]);
        if (r.success) return r.data;
        ctx.issues.push({ code: "custom", message: r.error.issues[0]?.message ?? E("value-invalid"), input: fields[name], path: [name] });
        return undefined;
      }
      const issue = (name: string, message: string) => ctx.issues.push({ code: "custom", message, input: fields[name], path: [name] });
      const v = (name: string) => text.parse(fields[name]);

      // No method, or one not offered here: the whole form is refused (the API's answer since issue 10), at the root.
      const chosen = method.safeParse(fields[F.method]);
      if (!chosen.success) {
        ctx.issues.push({ code: "custom", message: E("payment-method-required"), input: fields[F.method] });
        return z.NEVER;
      }
      const methodId = chosen.data;
      // What the chosen method asks for (its address, tax id, installments, currency, fapiao).
      const chosenFacts = methodFacts(methodId);
      const terms = read(tickField(E("payment-accept-terms-and-conditions-failure")), F.terms);
      if (terms === false) issue(F.terms, E("payment-accept-terms-and-conditions-failure"));

      const purchaseOrder = methodId === PAYMENT_METHOD.bankTransfer ? v(F.purchaseOrder) : "";
      if (purchaseOrder.length > PURCHASE_ORDER_MAX) issue(F.purchaseOrder, E("purchase-order-too-long"));

      const installments = chosenFacts.installments ? (read(installmentsField, F.installments) ?? null) : null;

      // The Brazil choice: FAPESP funds are paid in USD by a FAPESP method, Allpago by a Brazil-only one.
      const brazilChoice = facts.brazilChoice ? (read(brazilChoiceField, F.brazilChoice) ?? null) : null;
      let fapesp = "";
      if (brazilChoice) {
        const fits =
          brazilChoice === "allpago"
            ? chosenFacts.brazilOnly
            : brazilChoice === "fapesp"
              ? chosenFacts.supportsFapesp
              : !chosenFacts.brazilOnly;
        if (!fits) issue(F.method, E("payment-method-required"));
        if (brazilChoice === "fapesp") {
          fapesp = v(F.fapespProcessNumber);
          if (!fapesp) issue(F.fapespProcessNumber, E("fapesp-process-number-required"));
          else if (fapesp.length > 40) issue(F.fapespProcessNumber, E("fapesp-process-number-too-long"));
        }
      }

      const currencyIso: string | null =
        brazilChoice === "fapesp" ? "USD" : chosenFacts.supportsCurrencyChoice ? (read(currency, F.currency) ?? null) : null;

      let taxId: TaxId | null = null;
      if (chosenFacts.requiresTaxId) {
        const type = v(F.taxType);
        const number = v(F.taxNumber);
        if (type !== "CPF" && type !== "CNPJ") issue(F.taxType, E("tax-type-required"));
        if (!normalizeTaxNumber(number)) issue(F.taxNumber, E("tax-number-required"));
        else if (type === "CPF" || type === "CNPJ") {
          taxId = parseTaxId(type, number);
          if (!taxId) issue(F.taxNumber, E(type === "CPF" ? "cpf-invalid" : "cnpj-invalid"));
        }
      }

      // The order fapiao (issue 13 §4): 'yes' needs a method that issues fapiao (the page then shows the choice
      // again with the method cleared) and the fapiao's own fields.
      let fapiao: OrderFapiaoInput | null = null;
      const wantsFapiao = read(fapiaoAnswer, F.requireFapiao) === "yes";
      if (wantsFapiao) {
        if (!chosenFacts.supportsFapiao) issue(F.method, "fapiao:errors.method-not-fapiao");
        const checked = checkOrderFapiao(fields);
        for (const [name, key] of Object.entries(checked.errors)) issue(name, key);
        fapiao = checked.value;
      }
      const requireFapiao = wantsFapiao && chosenFacts.supportsFapiao;

      const address = readAddress("address", chosenFacts.address === "invoice" ? "invoice" : "billing", requireFapiao);
      const differs = chosenFacts.address === "billing" && read(tickField(E("value-invalid")), F.invoiceAddressDiffers) === true;
      const invoiceAddress = differs ? readAddress("invoiceAddress", "invoice", false) : null;

      const balances = balanceChoiceSchema.safeParse(fields);
      for (const i of balances.error?.issues ?? []) issue(i.path.map(String).join("."), i.message);
      if (ctx.issues.length > 0 || !balances.success) return z.NEVER;
      return {
        paymentMethodId: methodId,
        acceptTerms: true as boolean,
        /** Bank transfer: the researcher's purchase order number, ≤ 60. */
        purchaseOrder: purchaseOrder || null,
        /** Card: the hosted fields' one-time nonce. */
        nonce: chosenFacts.provider === "card" ? v(F.nonce) || null : null,
        /** Allpago card: 1–6. */
        installments,
        /** Allpago: the widget's checkout id. */
        checkoutId: chosenFacts.provider === "allpago" ? v(F.checkoutId) || null : null,
        brazilChoice,
        fapespProcessNumber: fapesp || null,
        grantNumber: v(F.grantNumber).slice(0, 60) || null,
        /** The currency the researcher chose to be charged in (card), or null for the invoice's own. */
        currencyIso,
        /** The billing address (card, PayPal, local methods) or the invoice address (bank transfer), when asked. */
        address,
        /** False when the invoice goes to another address than billing. */
        invoiceAddressSameAsBilling: !differs,
        invoiceAddress,
        taxId,
        /** The balance panel's choice (issue 13): what the payment spends of credits and prepayment. */
        ...balances.data,
        requireFapiao,
        /** The order fapiao's details when the researcher answered 'yes' where it applies, else null. */
        fapiao,
      };

      function rawAddress(form: AddressForm): RawAddress {
        return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, v(addressFieldName(form, f))])) as unknown as RawAddress;
      }

      function readAddress(form: AddressForm, label: "billing" | "invoice", fapiaoPhone: boolean): PaymentAddress | null {
        let raw = rawAddress(form);
        if (raw.addressId) {
          // A saved address is the user's own from the page's list: another user's id is not in it.
          const saved = facts.savedAddresses.find((a) => String(a.id) === raw.addressId);
          if (!saved) {
            issue(addressFieldName(form, "addressId"), E("address-not-found"));
            return null;
          }
          raw = fromSaved(saved);
        }
        // Methods without an address may still ask for the payer's name (Alipay, WeChat) or phone (UnionPay).
        if (chosenFacts.address === "none" && form === "address") return contactOnly(raw, fapiaoPhone);
        // A bank transfer's invoice address is optional: the invoice then carries the account's details.
        if (label === "invoice" && form === "address" && !addressGiven(raw)) return null;
        const r = checkAddress(raw, {
          facts: chosenFacts,
          label,
          requireFapiao: fapiaoPhone,
          countries: facts.countries,
          brazilId: facts.brazilCountryId,
        });
        for (const [field, key] of Object.entries(r.errors)) issue(addressFieldName(form, field), key);
        return r.address;
      }

      function contactOnly(raw: RawAddress, fapiaoPhone: boolean): PaymentAddress | null {
        if (!chosenFacts.showsName && !chosenFacts.requiresPhone && !fapiaoPhone) return null;
        if (chosenFacts.showsName && !raw.name) issue("address.name", E("name-required"));
        else if (raw.name.length > 50) issue("address.name", E("name-too-long"));
        const phone = checkPhone(raw.phone, chosenFacts.requiresPhone || fapiaoPhone, fapiaoPhone);
        if (phone) issue("address.phone", phone);
        return {
          addressId: null,
          name: raw.name || null,
          organization: null,
          address1: "",
          address2: null,
          city: "",
          state: null,
          zip: null,
          countryId: facts.userCountryId ?? 0,
          phone: raw.phone || null,
          vat: null,
        };
      }
    }),
  );
}

/** The parsed payment form, as the payment service takes it (inferred from the schema). */
export type PaymentSubmission = z.output<ReturnType<typeof paymentFormSchema>>;

/** A chosen saved address's own fields. */
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
 * zod issues as the Result every page and endpoint maps (recipe step 4): a root issue refuses the whole form
 * (`fail(code)`: no method), field issues are `invalid({ field: key })`, the first issue of each field.
 */
type Issue = { path: readonly PropertyKey[]; message: string };
export function resultOfIssues<T>(parsed: { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } }): Result<T> {
  if (parsed.success) return ok(parsed.data);
  const root = parsed.error.issues.find((i) => i.path.length === 0);
  if (root) return fail(errorCode(root.message));
  const errors: FieldErrors = {};
  for (const i of parsed.error.issues) errors[i.path.map(String).join(".")] ??= i.message;
  return invalid(errors);
}

/** Parses posted (or API-mapped) payment fields with the schema of the page's facts. */
export const parsePaymentForm = (fields: Record<string, string>, facts: PaymentFormFacts): Result<PaymentSubmission> =>
  resultOfIssues(paymentFormSchema(facts).safeParse(fields));

/** The balance choice alone, read before the form's facts are loaded (they depend on it). */
export const parseBalanceChoice = (fields: Record<string, string>) => resultOfIssues(balanceChoiceSchema.safeParse(fields));

/**
 * The same for a page, which shows its refusal in the form loaded without the prepayment (as the balance plan does
 * with an amount above the maximum): the choice, and the refusal's field errors.
 */
export function readBalanceChoice(fields: Record<string, string>): { choice: BalanceChoice; errors: FieldErrors | null } {
  const r = parseBalanceChoice(fields);
  if (r.ok) return { choice: r.value, errors: null };
  const credits = tickField(E("value-invalid")).safeParse(fields[F.useCredits]);
  return { choice: { useCredits: credits.success && credits.data, prepayOption: "none", prepayAmount: null }, errors: r.fieldErrors };
}
