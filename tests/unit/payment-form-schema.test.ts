// The payment form's one schema (issue 21 §6, ADR 060): built from the page's facts, its output the submission's
// type. Pure: facts in, a schema out. The form's every message is tested in payment-form.test.ts and
// fapiao-form.test.ts through the same schema; here, what the facts change, the balance choice and the body's types.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  balanceChoiceSchema,
  fapiaoAnswerField,
  methodField,
  parseBalanceChoice,
  parsePaymentForm,
  paymentFormSchema,
  readBalanceChoice,
  type PaymentFormFacts,
} from "#common/payments/form-schema";
import { paymentBody } from "#common/payments/schemas";
import { PAYMENT_METHOD as M } from "#common/payments/methods";
import type { PaymentSubmission } from "#common/payments/types";
import type { OrderFapiaoInput } from "#common/fapiao/schemas";

const facts = (over: Partial<PaymentFormFacts> = {}): PaymentFormFacts => ({
  methods: [M.creditCard, M.paypal, M.alipay].map((id) => ({ id, sandbox: false, disabled: false })),
  brazilChoice: false,
  currencies: [{ isoCode: "USD", shortName: "US dollar" }],
  fapiao: null,
  savedAddresses: [],
  countries: [{ id: 45, iso2: "CN", name: "China", states: [] }],
  brazilCountryId: null,
  userCountryId: 45,
  ...over,
});
const alipay = { paymentMethodId: String(M.alipay), acceptTerms: "on", "address.name": "李明" };
const errorsOf = (fields: Record<string, string>, f = facts()) => {
  const r = parsePaymentForm(fields, f);
  return r.ok ? null : { error: r.error, fieldErrors: r.fieldErrors };
};

describe("built from the page's facts", () => {
  it("takes only the methods the page offers and does not show disabled", () => {
    const f = facts({
      methods: [
        { id: M.paypal, sandbox: false, disabled: false },
        { id: M.creditCard, sandbox: false, disabled: true },
      ],
    });
    expect(methodField(f).safeParse(String(M.paypal)).data).toBe(M.paypal);
    for (const v of [String(M.creditCard), String(M.bankTransfer), "999", "", "6.0", " 6x"])
      expect(methodField(f).safeParse(v).success).toBe(false);
    // A method not offered refuses the whole form (the API's `{ error }` since issue 10), whatever else is wrong.
    expect(errorsOf({ paymentMethodId: String(M.bankTransfer) })).toEqual({ error: "payment-method-required", fieldErrors: {} });
  });

  it("asks the fapiao question only where the facts say it applies", () => {
    const asked = fapiaoAnswerField({ fapiao: { disabled: false } });
    expect(["on", "no"].map((v) => asked.safeParse(v).data)).toEqual(["yes", "no"]);
    expect(asked.safeParse("").error?.issues[0].message).toBe("fapiao:errors.option-required");
    for (const f of [null, { disabled: true }]) {
      const notAsked = fapiaoAnswerField({ fapiao: f });
      expect(["", "no"].map((v) => notAsked.safeParse(v).data)).toEqual(["no", "no"]);
      expect(notAsked.safeParse("on").error?.issues[0].message).toBe("fapiao:errors.fapiao-not-offered");
    }
    expect(errorsOf({ ...alipay, requireFapiao: "on" })?.fieldErrors).toEqual({ requireFapiao: "fapiao:errors.fapiao-not-offered" });
    expect(errorsOf({ ...alipay, requireFapiao: "on" }, facts({ fapiao: { disabled: false } }))?.fieldErrors).toEqual({
      "fapiao.type": "fapiao:errors.type-required",
      "fapiao.serviceType": "fapiao:errors.value-required",
      "fapiao.organizationName": "fapiao:errors.fapiao-organization-name-error",
      // A fapiao's contact: an 11-digit mobile (spec 2 §5).
      "address.phone": "payment:errors.phone-fapiao",
    });
  });

  it("reports every failing field at once, each beside its field", () => {
    expect(errorsOf({ paymentMethodId: String(M.alipay), useCredits: "maybe", requireFapiao: "on" })).toEqual({
      error: "payment-accept-terms-and-conditions-failure",
      fieldErrors: {
        acceptTerms: "payment:errors.payment-accept-terms-and-conditions-failure",
        requireFapiao: "fapiao:errors.fapiao-not-offered",
        "address.name": "payment:errors.name-required",
        useCredits: "payment:errors.value-invalid",
      },
    });
  });

  it("gives the payment service its submission, typed by the schema's output", () => {
    const schema = paymentFormSchema(facts());
    const r = schema.safeParse({ ...alipay, useCredits: "yes", prepayOption: "fullPayment" });
    expect(r.data).toMatchObject({
      paymentMethodId: M.alipay,
      acceptTerms: true,
      address: { name: "李明", countryId: 45 },
      useCredits: true,
      prepayOption: "fullPayment",
      prepayAmount: null,
      requireFapiao: false,
      fapiao: null,
    });
    expectTypeOf<PaymentSubmission["prepayOption"]>().toEqualTypeOf<"fullPayment" | "partialPayment" | "none">();
    expectTypeOf<PaymentSubmission["fapiao"]>().toEqualTypeOf<OrderFapiaoInput | null>();
    expectTypeOf<PaymentSubmission["paymentMethodId"]>().toEqualTypeOf<number>();
  });
});

describe("the balance choice", () => {
  it("reads yes/no, the option and a partial amount", () => {
    expect(balanceChoiceSchema.parse({})).toEqual({ useCredits: false, prepayOption: "none", prepayAmount: null });
    expect(balanceChoiceSchema.parse({ useCredits: "yes", prepayOption: "partialPayment", prepayAmount: " 50,25 " })).toEqual({
      useCredits: true,
      prepayOption: "partialPayment",
      prepayAmount: "50,25",
    });
  });

  it("refuses a negative, NaN, exponent or huge partial amount, an unknown option and a mangled tick", () => {
    for (const amount of ["-5", "NaN", "Infinity", "1e3", "0", "9999999999999", "5.5555", ""]) {
      const r = parseBalanceChoice({ prepayOption: "partialPayment", prepayAmount: amount });
      expect([amount, r.ok ? null : r.fieldErrors]).toEqual([amount, { prepayAmount: "payment:errors.prepay-amount-invalid" }]);
    }
    // The amount counts only for a partial prepayment (the panel posts it whatever the option).
    expect(parseBalanceChoice({ prepayOption: "fullPayment", prepayAmount: "-5" }).ok).toBe(true);
    const r = parseBalanceChoice({ prepayOption: "all", useCredits: "2" });
    expect(r.ok ? null : r.fieldErrors).toEqual({
      useCredits: "payment:errors.value-invalid",
      prepayOption: "payment:errors.option-required",
    });
    // A page shows the refusal in the form loaded without balances.
    expect(readBalanceChoice({ useCredits: "2" }).choice).toEqual({ useCredits: false, prepayOption: "none", prepayAmount: null });
  });
});

describe("the API body's types", () => {
  it("refuses a value of the wrong JSON type with its field's key instead of reading it as not given", () => {
    const issue = (body: Record<string, unknown>) => {
      const r = paymentBody.safeParse(body);
      return r.success ? null : [r.error.issues[0].path.join("."), r.error.issues[0].message];
    };
    expect(issue({ paymentMethodId: [6] })).toEqual(["paymentMethodId", "payment:errors.payment-method-required"]);
    expect(issue({ paymentMethodId: 6, useCredits: 1 })).toEqual(["useCredits", "payment:errors.value-invalid"]);
    expect(issue({ paymentMethodId: 6, acceptedTermsAndConditions: {} })).toEqual([
      "acceptedTermsAndConditions",
      "payment:errors.payment-accept-terms-and-conditions-failure",
    ]);
    expect(issue({ paymentMethodId: 6, billingAddress: "Durham" })).toEqual(["billingAddress", "payment:errors.value-invalid"]);
    expect(issue({ paymentMethodId: 6, billingAddress: { city: ["Durham"] } })).toEqual([
      "billingAddress.city",
      "payment:errors.value-invalid",
    ]);
    expect(issue({ paymentMethodId: 6, amount: true })).toEqual(["amount", "payment:errors.prepay-amount-invalid"]);
    // The spec's shapes still read: ids as numbers or text, `country` as `{ value }`, `fapiao.type` as `{ id }`, nulls.
    const ok = paymentBody.parse({
      paymentMethodId: "6",
      acceptedTermsAndConditions: true,
      useCredits: false,
      billingAddress: { city: "Durham", country: { value: 233 }, address2: null },
      fapiao: { type: { id: "general" } },
      invoiceNumbers: ["INV1"],
    });
    expect(ok.fields).toMatchObject({
      paymentMethodId: "6",
      acceptTerms: "on",
      useCredits: "no",
      "address.countryId": "233",
      "fapiao.type": "general",
    });
    // A body's mangled yes/no is the schema's to refuse, like the page's.
    expect(
      errorsOf({ ...paymentBody.parse({ paymentMethodId: M.alipay, acceptedTermsAndConditions: "sure" }).fields, "address.name": "李明" }),
    ).toEqual({
      error: "payment-accept-terms-and-conditions-failure",
      fieldErrors: { acceptTerms: "payment:errors.payment-accept-terms-and-conditions-failure" },
    });
  });
});
