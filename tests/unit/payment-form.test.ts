// The shared payment form's rules (spec 2 §5, §6; issue 12 §1): every message of the payment, address, phone,
// zip, installments, currency, Brazil option, tax type and number, terms and payment method rules, checked by
// the chosen method's facts. Pure: parsePaymentSubmission takes the form's loaded data.
import { describe, expect, it } from "vitest";
import { parsePaymentForm as parsePaymentSubmission } from "#common/payments/form-schema";
import { paymentBody, type PaymentFormData } from "#common/payments/schemas";
import { checkPhone, checkZip } from "#common/payments/address";
import { PAYMENT_METHOD as M } from "#common/payments/methods";
import { fixedT } from "#server/i18n";

const US = 233;
const BR = 32;
const CN = 45;
const data = (over: Partial<PaymentFormData> = {}): PaymentFormData => ({
  purpose: "order",
  voucherAvailable: true,
  methods: [M.creditCard, M.paypal, M.bankTransfer, M.alipay, M.boleto, M.unionpay, M.allpagoPaypal, M.allpagoCard, M.wechat].map((id) => ({
    id,
    sandbox: true,
    disabled: false,
  })),
  savedAddresses: [
    {
      id: 7,
      label: "billing",
      name: "Ana Souza",
      organization: "USP",
      address1: "Av. Paulista 1000",
      address2: null,
      city: "São Paulo",
      state: "SP",
      zip: "01310-100",
      countryId: BR,
      phone: "11987654321",
      vat: null,
    },
  ],
  countries: [
    {
      id: US,
      iso2: "US",
      name: "United States",
      states: [
        { code: "NC", name: "North Carolina" },
        { code: "CA", name: "California" },
      ],
    },
    {
      id: BR,
      iso2: "BR",
      name: "Brazil",
      states: [
        { code: "SP", name: "São Paulo" },
        { code: "RJ", name: "Rio de Janeiro" },
      ],
    },
    { id: CN, iso2: "CN", name: "China", states: [] },
  ],
  currencies: [
    { isoCode: "USD", shortName: "US dollar" },
    { isoCode: "EUR", shortName: "Euro" },
  ],
  userCountryId: US,
  brazilCountryId: BR,
  brazilChoice: false,
  total: 26000,
  currencyIso: "USD",
  idempotencyKey: "0b6f7c1e-1d2a-4a4e-9a57-8b1f4a1c2d3e",
  ...over,
});

const usAddress = {
  "address.address1": "1 Main St",
  "address.city": "Durham",
  "address.state": "NC",
  "address.zip": "27701",
  "address.countryId": String(US),
};
const brAddress = {
  "address.name": "Ana Souza",
  "address.address1": "Av. Paulista 1000",
  "address.city": "São Paulo",
  "address.state": "SP",
  "address.zip": "01310100",
};

function parse(fields: Record<string, string>, over?: Partial<PaymentFormData>) {
  return parsePaymentSubmission({ acceptTerms: "on", ...fields }, data(over));
}
function errorsOf(fields: Record<string, string>, over?: Partial<PaymentFormData>) {
  const r = parse(fields, over);
  if (r.ok) throw new Error("expected field errors");
  return r.fieldErrors;
}
const e = (code: string) => `payment:errors.${code}`;

describe("payment method and terms", () => {
  it("refuses no method, an unknown one, one not offered here, and a disabled one: 'Please choose a payment method.'", () => {
    for (const method of ["", "999", String(M.credits)]) {
      const r = parse({ paymentMethodId: method });
      expect(r.ok || r.error).toBe("payment-method-required");
    }
    const disabled = parse({ paymentMethodId: "9" }, { methods: [{ id: M.bankTransfer, sandbox: false, disabled: true }] });
    expect(disabled.ok || disabled.error).toBe("payment-method-required");
  });

  it("nothing due: free is the one method, with nothing else to fill in", () => {
    const free = { total: 0, methods: [{ id: M.free, sandbox: false, disabled: false }] };
    const r = parse({ paymentMethodId: "4" }, free);
    expect(r.ok && r.value).toMatchObject({ paymentMethodId: 4, address: null, taxId: null, currencyIso: null });
    const card = parse({ paymentMethodId: "3" }, free);
    expect(card.ok || card.error).toBe("payment-method-required");
  });

  it("needs the terms ticked: 'payment-accept-terms-and-conditions-failure'", () => {
    const r = parsePaymentSubmission({ paymentMethodId: "9" }, data());
    expect(r.ok ? null : r.fieldErrors).toEqual({ acceptTerms: e("payment-accept-terms-and-conditions-failure") });
    expect(parsePaymentSubmission({ paymentMethodId: "9", acceptTerms: "true" }, data()).ok).toBe(true);
  });

  it("bank transfer: no address needed, purchase order optional and at most 60 characters", () => {
    const r = parse({ paymentMethodId: "9", purchaseOrder: " PO-42 " });
    expect(r.ok && r.value).toMatchObject({ paymentMethodId: 9, purchaseOrder: "PO-42", address: null, acceptTerms: true });
    expect(errorsOf({ paymentMethodId: "9", purchaseOrder: "x".repeat(61) })).toEqual({ purchaseOrder: e("purchase-order-too-long") });
    // Another method's purchase order is not kept.
    const card = parse({ paymentMethodId: "3", currencyIso: "USD", nonce: "fake-valid-nonce", ...usAddress });
    expect(card.ok && card.value.purchaseOrder).toBeNull();
  });

  it("bank transfer: an invoice address once begun is checked in full, VAT kept", () => {
    expect(errorsOf({ paymentMethodId: "9", "address.organization": "Duke University" })).toEqual({
      "address.address1": e("address1-required"),
      "address.city": e("city-required"),
      "address.countryId": e("country-required"),
    });
    const r = parse({ paymentMethodId: "9", ...usAddress, "address.vat": "DE123456789" });
    expect(r.ok && r.value.address).toMatchObject({ address1: "1 Main St", countryId: US, state: "NC", vat: "DE123456789" });
  });
});

describe("billing address (card, PayPal)", () => {
  it("asks for address, city, country and a state from the country's list", () => {
    expect(errorsOf({ paymentMethodId: "6" })).toEqual({
      "address.address1": e("address1-required"),
      "address.city": e("city-required"),
      "address.countryId": e("country-required"),
    });
    expect(errorsOf({ paymentMethodId: "6", ...usAddress, "address.state": "" })).toEqual({ "address.state": e("state-required") });
    // The country changed without JavaScript: a state not in the new country's list is cleared, then asked for.
    expect(errorsOf({ paymentMethodId: "6", ...usAddress, "address.countryId": String(BR) })).toEqual({
      "address.state": e("state-required"),
    });
    // A country without a state list takes free text, optional, at most 30.
    const cn = parse({ paymentMethodId: "6", ...usAddress, "address.countryId": String(CN), "address.state": "Beijing" });
    expect(cn.ok && cn.value.address?.state).toBe("Beijing");
    expect(errorsOf({ paymentMethodId: "6", ...usAddress, "address.countryId": String(CN), "address.state": "x".repeat(31) })).toEqual({
      "address.state": e("state-too-long"),
    });
  });

  it("limits every field", () => {
    const long = {
      ...usAddress,
      "address.organization": "o".repeat(61),
      "address.address1": "a".repeat(101),
      "address.address2": "b".repeat(101),
      "address.city": "c".repeat(41),
      "address.zip": "1234567890",
      "address.phone": "1".repeat(26),
    };
    expect(errorsOf({ paymentMethodId: "6", ...long })).toEqual({
      "address.organization": e("organization-too-long"),
      "address.address1": e("address1-too-long"),
      "address.address2": e("address2-too-long"),
      "address.city": e("city-too-long"),
      "address.zip": e("zip-too-long"),
      "address.phone": e("phone-length"),
    });
  });

  it("card: a currency from the list ('Please select a payment currency'), the nonce", () => {
    expect(errorsOf({ paymentMethodId: "3", ...usAddress })).toEqual({ currencyIso: e("currency-required") });
    expect(errorsOf({ paymentMethodId: "3", ...usAddress, currencyIso: "CNY" })).toEqual({ currencyIso: e("currency-required") });
    const r = parse({ paymentMethodId: "3", ...usAddress, currencyIso: "EUR", nonce: "fake-valid-nonce" });
    expect(r.ok && r.value).toMatchObject({
      currencyIso: "EUR",
      nonce: "fake-valid-nonce",
      invoiceAddressSameAsBilling: true,
      invoiceAddress: null,
    });
  });

  it("an invoice address that differs from billing is its own, checked address", () => {
    const fields = { paymentMethodId: "6", ...usAddress, invoiceAddressDiffers: "on" };
    expect(errorsOf(fields)).toEqual({
      "invoiceAddress.address1": e("address1-required"),
      "invoiceAddress.city": e("city-required"),
      "invoiceAddress.countryId": e("country-required"),
    });
    const r = parse({
      ...fields,
      "invoiceAddress.address1": "2 Elm St",
      "invoiceAddress.city": "Berlin",
      "invoiceAddress.countryId": String(CN),
      "invoiceAddress.vat": "CN-1",
    });
    expect(r.ok && r.value).toMatchObject({ invoiceAddressSameAsBilling: false, invoiceAddress: { address1: "2 Elm St", vat: "CN-1" } });
  });

  it("a saved address is read from the account; another's id is not found", () => {
    const r = parse({ paymentMethodId: "6", "address.addressId": "7", "address.city": "ignored" });
    expect(r.ok && r.value.address).toMatchObject({ addressId: 7, city: "São Paulo", countryId: BR, state: "SP" });
    expect(errorsOf({ paymentMethodId: "6", "address.addressId": "8" })).toEqual({ "address.addressId": e("address-not-found") });
  });
});

describe("Brazil-only methods", () => {
  const boleto = { paymentMethodId: "20", ...brAddress, taxType: "CPF", taxNumber: "529.982.247-25" };

  it("boleto: payer, CPF or CNPJ with real check digits, a CEP, the country fixed to Brazil", () => {
    const r = parse({ ...boleto, "address.countryId": String(US) });
    expect(r.ok && r.value).toMatchObject({
      taxId: { type: "CPF", number: "52998224725" },
      address: { name: "Ana Souza", zip: "01310-100", countryId: BR, state: "SP" },
    });
    expect(errorsOf({ ...boleto, "address.name": "", taxType: "", taxNumber: "" })).toEqual({
      "address.name": e("boleto-payer-required"),
      taxType: e("tax-type-required"),
      taxNumber: e("tax-number-required"),
    });
    expect(errorsOf({ ...boleto, taxNumber: "529.982.247-24" })).toEqual({ taxNumber: e("cpf-invalid") });
    expect(errorsOf({ ...boleto, taxType: "CNPJ", taxNumber: "12.ABC.345/01DE-36" })).toEqual({ taxNumber: e("cnpj-invalid") });
    const cnpj = parse({ ...boleto, taxType: "CNPJ", taxNumber: "12.ABC.345/01DE-35" });
    expect(cnpj.ok && cnpj.value.taxId).toEqual({ type: "CNPJ", number: "12ABC34501DE35" });
  });

  it("zip: 'Postcode must be 8 digits.' (nnnnn-nnn), 'Please enter your zip code.'", () => {
    expect(errorsOf({ ...boleto, "address.zip": "0131-0100" })).toEqual({ "address.zip": e("zip-cep") });
    expect(errorsOf({ ...boleto, "address.zip": "1234567" })).toEqual({ "address.zip": e("zip-cep") });
    expect(errorsOf({ ...boleto, "address.zip": "" })).toEqual({ "address.zip": e("zip-required") });
    expect(checkZip("01310-100", true)).toEqual({ value: "01310-100", error: null });
    expect(checkZip("", false)).toEqual({ value: null, error: null });
  });

  it("Allpago card: the name and 1 to 6 installments", () => {
    const card = { ...boleto, paymentMethodId: "23" };
    for (const n of ["", "0", "7", "2.5", "x"])
      expect(errorsOf({ ...card, installments: n })).toEqual({ installments: e("installments-invalid") });
    const r = parse({ ...card, installments: "6", checkoutId: "8ac7a4c9" });
    expect(r.ok && r.value).toMatchObject({ installments: 6, checkoutId: "8ac7a4c9" });
    expect(errorsOf({ ...card, installments: "3", "address.name": "" })).toEqual({ "address.name": e("name-required") });
  });

  it("Allpago PayPal: no name asked, tax id required", () => {
    const r = parse({ ...boleto, paymentMethodId: "22", "address.name": "" });
    expect(r.ok && r.value.address?.name).toBeNull();
    expect(errorsOf({ ...boleto, paymentMethodId: "22", taxType: "" })).toEqual({ taxType: e("tax-type-required") });
  });
});

describe("the Brazil choice (BR localisation)", () => {
  const br = { brazilChoice: true };

  it("is required: 'You must select an option'", () => {
    expect(errorsOf({ paymentMethodId: "9" }, br)).toEqual({ brazilChoice: e("option-required") });
    expect(errorsOf({ paymentMethodId: "9", brazilChoice: "maybe" }, br)).toEqual({ brazilChoice: e("option-required") });
  });

  it("FAPESP: a FAPESP method, its process number, charged in USD", () => {
    expect(errorsOf({ paymentMethodId: "9", brazilChoice: "fapesp" }, br)).toEqual({
      fapespProcessNumber: e("fapesp-process-number-required"),
    });
    expect(errorsOf({ paymentMethodId: "6", brazilChoice: "fapesp", fapespProcessNumber: "2024/01234-5", ...usAddress }, br)).toEqual({
      paymentMethodId: e("payment-method-required"),
    });
    const r = parse(
      { paymentMethodId: "3", brazilChoice: "fapesp", fapespProcessNumber: "2024/01234-5", currencyIso: "EUR", ...usAddress },
      br,
    );
    expect(r.ok && r.value).toMatchObject({ brazilChoice: "fapesp", fapespProcessNumber: "2024/01234-5", currencyIso: "USD" });
  });

  it("Allpago: only the Brazilian methods; no requirements: only the international ones", () => {
    expect(errorsOf({ paymentMethodId: "9", brazilChoice: "allpago" }, br)).toEqual({ paymentMethodId: e("payment-method-required") });
    const boleto = { paymentMethodId: "20", ...brAddress, taxType: "CPF", taxNumber: "529.982.247-25" };
    expect(errorsOf({ ...boleto, brazilChoice: "no-requirements" }, br)).toEqual({ paymentMethodId: e("payment-method-required") });
    const r = parse({ ...boleto, brazilChoice: "allpago" }, br);
    expect(r.ok && r.value.brazilChoice).toBe("allpago");
  });
});

describe("name and phone of the Chinese methods", () => {
  it("Alipay and WeChat ask the name only; UnionPay also a phone of 7 to 25", () => {
    expect(errorsOf({ paymentMethodId: "19" })).toEqual({ "address.name": e("name-required") });
    expect(errorsOf({ paymentMethodId: "25", "address.name": "n".repeat(51) })).toEqual({ "address.name": e("name-too-long") });
    expect(errorsOf({ paymentMethodId: "21", "address.name": "Li Ming" })).toEqual({ "address.phone": e("phone-required") });
    expect(errorsOf({ paymentMethodId: "21", "address.name": "Li Ming", "address.phone": "123456" })).toEqual({
      "address.phone": e("phone-length"),
    });
    const r = parse({ paymentMethodId: "21", "address.name": "Li Ming", "address.phone": "+86 10 1234 5678" });
    expect(r.ok && r.value.address).toMatchObject({ name: "Li Ming", phone: "+86 10 1234 5678" });
  });

  it("a fapiao needs an 11-digit phone: 'Phone number must be 11 digits.'", () => {
    // Where the order fapiao is asked (issue 13 §4); elsewhere 'yes' is refused (form-schema.test.ts).
    const asked = { fapiao: { disabled: false } };
    const fapiao = { "fapiao.type": "general", "fapiao.serviceType": "editing", "fapiao.organizationName": "北京大学" };
    const unionpay = { paymentMethodId: "21", "address.name": "Li Ming", requireFapiao: "on", ...fapiao };
    expect(errorsOf(unionpay, asked)).toEqual({ "address.phone": e("phone-fapiao") });
    expect(errorsOf({ ...unionpay, "address.phone": "+86 10 1234 5678" }, asked)).toEqual({ "address.phone": e("phone-fapiao") });
    const r = parse({ ...unionpay, "address.phone": "13812345678" }, asked);
    expect(r.ok && r.value.requireFapiao).toBe(true);
    expect(checkPhone("", false, false)).toBeNull();
    expect(checkPhone("", true, false)).toBe(e("phone-required"));
  });
});

describe("the API body", () => {
  it("maps the spec's names to the form's fields", () => {
    const bank = paymentBody.parse({
      paymentMethodId: 9,
      acceptedTermsAndConditions: true,
      purchaseOrder: "PO-1",
      invoiceAddress: { address1: "1 Main St", city: "Durham", country: { value: US }, state: "NC" },
      additionalData: { payoffReceiptCodes: ["INV1", "INV2"] },
    });
    expect(bank.invoiceNumbers).toEqual(["INV1", "INV2"]);
    expect(bank.fields).toMatchObject({
      paymentMethodId: "9",
      acceptTerms: "on",
      purchaseOrder: "PO-1",
      "address.address1": "1 Main St",
      "address.countryId": String(US),
    });
    const allpago = paymentBody.parse({
      paymentMethodId: 23,
      allpagoCreditCard: { checkoutId: "c1", numberOfInstallments: 3 },
      taxIdentification: { type: "CPF", number: "529.982.247-25" },
      boleto: { payer: "Ana Souza" },
      billingAddress: { address1: "Av. Paulista 1000", city: "São Paulo", state: "SP", zip: "01310-100" },
      invoiceNumbers: "INV3,INV4",
    });
    expect(allpago.invoiceNumbers).toEqual(["INV3", "INV4"]);
    expect(allpago.fields).toMatchObject({
      installments: "3",
      checkoutId: "c1",
      taxType: "CPF",
      "address.name": "Ana Souza",
      acceptTerms: "",
    });
    const r = parsePaymentSubmission({ ...allpago.fields, acceptTerms: "on" }, data());
    expect(r.ok && r.value).toMatchObject({ installments: 3, taxId: { type: "CPF" }, address: { countryId: BR, zip: "01310-100" } });
  });
});

describe("messages", () => {
  it("every message of spec 2 §5 exists with its text", () => {
    const t = fixedT("en", "payment");
    const texts: Record<string, string> = {
      "payment-method-required": "Please choose a payment method.",
      "tax-type-required": "Please select your tax type.",
      "tax-number-required": "Please enter your tax number.",
      "phone-fapiao": "Phone number must be 11 digits.",
      "phone-required": "Phone number is required",
      "zip-cep": "Postcode must be 8 digits.",
      "zip-required": "Please enter your zip code.",
      "installments-invalid": "You must select a valid number of installments",
      "currency-required": "Please select a payment currency",
      "option-required": "You must select an option",
      "name-required": "Customer name is required",
      "organization-required": "Organization name is required",
      "address1-required": "Please enter your address.",
      "city-required": "Please enter your city.",
      "state-required": "Please choose your state.",
      "country-required": "Please choose your country.",
      "payment-failed": "An error occurred processing your payment",
    };
    for (const [code, text] of Object.entries(texts)) expect(t(`errors.${code}`)).toBe(text);
    expect(t("errors.payment-save-error", { error: "Do Not Honor" })).toBe("There was a problem saving your payment: Do Not Honor.");
    expect(t("errors.payment-accept-terms-and-conditions-failure", { context: "order" })).toBe(
      "Please accept the terms of service to place your order.",
    );
    expect(t("errors.payment-accept-terms-and-conditions-failure", { context: "invoices" })).toBe(
      "Please accept the terms of service to pay.",
    );
    for (const code of [
      "boleto-payer-required",
      "invoice-payer-name-required",
      "cpf-invalid",
      "cnpj-invalid",
      "phone-length",
      "fapesp-process-number-required",
    ])
      expect(t(`errors.${code}`)).not.toBe(`errors.${code}`);
  });
});
