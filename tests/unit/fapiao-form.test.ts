// The fapiao forms' rules (spec 2 §5, issue 13 §4): the order fapiao inside the payment form (its question, the
// method that must issue fapiao, its fields), the stored fapiao form, the API body's `fapiao` object, the staff's
// fapiao number and the notices after create/cancel. Pure: no database.
import { describe, expect, it } from "vitest";
import { parsePaymentForm as parsePaymentSubmission } from "#common/payments/form-schema";
import { paymentBody, type PaymentFormData } from "#common/payments/schemas";
import { PAYMENT_METHOD as M } from "#common/payments/methods";
import { checkOrderFapiao, checkStoredFapiao, fapiaoNumberError, fapiaoPageSchema, organizationNameError } from "#common/fapiao/schemas";
import { fapiaoNoticeKey } from "#common/fapiao/notice";
import { orderFapiaoApplies, prepaymentTakesFapiao } from "#common/fapiao/rules";

const e = (code: string) => `fapiao:errors.${code}`;
const VALID = "91330100716105852F";

const special = {
  "fapiao.type": "special",
  "fapiao.serviceType": "editing",
  "fapiao.organizationName": "阿里巴巴（中国）有限公司",
  "fapiao.taxpayerNumber": VALID,
  "fapiao.contactEmail": "finance@example.cn",
  "fapiao.contactPhone": "13800138000",
  "fapiao.shippingAddress": "浙江省杭州市余杭区文一西路969号",
};

describe("the order fapiao's fields", () => {
  it("accepts a complete special fapiao, normalising the taxpayer number", () => {
    const r = checkOrderFapiao({ ...special, "fapiao.taxpayerNumber": " 9133 0100 7161 0585 2f " });
    expect(r.errors).toEqual({});
    expect(r.value).toMatchObject({ type: "special", organizationName: "阿里巴巴（中国）有限公司", taxpayerNumber: VALID });
  });

  it("reports every missing field with the spec's messages", () => {
    expect(checkOrderFapiao({}).errors).toEqual({
      "fapiao.type": e("type-required"),
      "fapiao.serviceType": e("value-required"),
      "fapiao.organizationName": e("fapiao-organization-name-error"),
    });
  });

  it("needs the taxpayer number and mobile for a special fapiao, not for a general one (but checks them when given)", () => {
    const bare = { ...special, "fapiao.taxpayerNumber": "", "fapiao.contactPhone": "" };
    expect(checkOrderFapiao(bare).errors).toEqual({
      "fapiao.taxpayerNumber": e("taxpayer-number-required"),
      "fapiao.contactPhone": e("value-required"),
    });
    expect(checkOrderFapiao({ ...bare, "fapiao.type": "general" }).errors).toEqual({});
    expect(checkOrderFapiao({ ...bare, "fapiao.type": "general", "fapiao.taxpayerNumber": "91330100716105852G" }).errors).toEqual({
      "fapiao.taxpayerNumber": e("fapiao-taxpayer-number-error"),
    });
  });

  it("limits the organisation name (2–100, no Latin letters), the e-mail and the mobile (15)", () => {
    expect(organizationNameError("北")).toBe(e("fapiao-organization-name-error"));
    expect(organizationNameError("北京大学")).toBeNull();
    expect(organizationNameError("Peking University")).toBe(e("fapiao-organization-name-error"));
    expect(organizationNameError("北京Beida")).toBe(e("fapiao-organization-name-error"));
    expect(organizationNameError("北".repeat(101))).toBe(e("fapiao-organization-name-error"));
    expect(checkOrderFapiao({ ...special, "fapiao.contactEmail": "not-an-email" }).errors).toEqual({
      "fapiao.contactEmail": e("emailAddressInvalidFormat"),
    });
    expect(checkOrderFapiao({ ...special, "fapiao.contactPhone": "1".repeat(16) }).errors).toEqual({
      "fapiao.contactPhone": e("phone-number-too-long"),
    });
  });
});

// The payment form's data as loaded for a Chinese researcher on the US site (the question applies).
const data = (fapiao: PaymentFormData["fapiao"]): PaymentFormData => ({
  purpose: "invoices",
  voucherAvailable: false,
  methods: [M.creditCard, M.bankTransfer, M.alipay, M.unionpay].map((id) => ({ id, sandbox: true, disabled: false })),
  savedAddresses: [],
  countries: [{ id: 45, iso2: "CN", name: "China", states: [] }],
  currencies: [{ isoCode: "USD", shortName: "US dollar" }],
  userCountryId: 45,
  brazilCountryId: null,
  brazilChoice: false,
  total: 26000,
  currencyIso: "USD",
  idempotencyKey: "0b6f7c1e-1d2a-4a4e-9a57-8b1f4a1c2d3e",
  fapiao,
});
const alipay = { paymentMethodId: String(M.alipay), acceptTerms: "on", "address.name": "李明" };

describe("the order fapiao in the payment form", () => {
  it("asks 'Do you need a fapiao?' where it applies: 'You must select an option'", () => {
    const r = parsePaymentSubmission(alipay, data({ disabled: false }));
    expect(!r.ok && r.fieldErrors).toEqual({ requireFapiao: e("option-required") });
    const no = parsePaymentSubmission({ ...alipay, requireFapiao: "no" }, data({ disabled: false }));
    expect(no.ok && [no.value.requireFapiao, no.value.fapiao]).toEqual([false, null]);
  });

  it("with 'yes' takes the fapiao's details, and refuses a method that cannot issue one", () => {
    const phone = { "address.phone": "13800138000" };
    const yes = parsePaymentSubmission({ ...alipay, ...phone, requireFapiao: "on", ...special }, data({ disabled: false }));
    expect(yes.ok && yes.value.fapiao).toMatchObject({ type: "special", taxpayerNumber: VALID });
    const card = parsePaymentSubmission(
      { ...alipay, paymentMethodId: String(M.creditCard), requireFapiao: "on", ...special },
      data({ disabled: false }),
    );
    expect(!card.ok && card.fieldErrors.paymentMethodId).toBe(e("method-not-fapiao"));
    const missing = parsePaymentSubmission({ ...alipay, ...phone, requireFapiao: "on" }, data({ disabled: false }));
    expect(!missing.ok && Object.keys(missing.fieldErrors).sort()).toEqual([
      "fapiao.organizationName",
      "fapiao.serviceType",
      "fapiao.type",
    ]);
  });

  it("refuses 'yes' where the question is shown disabled (more than one invoice) or not asked; 'no' is no", () => {
    // Issue 21 §6: the schema is built from the page's facts, and 'yes' there could only be dropped unseen.
    const posted = { ...alipay, requireFapiao: "on", ...special };
    const disabled = parsePaymentSubmission(posted, data({ disabled: true }));
    expect(!disabled.ok && disabled.fieldErrors).toEqual({ requireFapiao: e("fapiao-not-offered") });
    const none = parsePaymentSubmission({ ...posted, "address.phone": "13800138000" }, data(null));
    expect(!none.ok && none.fieldErrors).toEqual({ requireFapiao: e("fapiao-not-offered") });
    const no = parsePaymentSubmission({ ...alipay, requireFapiao: "no" }, data(null));
    expect(no.ok && [no.value.requireFapiao, no.value.fapiao]).toEqual([false, null]);
  });

  it("maps the API's fapiao object and an explicit 'no'", () => {
    const body = paymentBody.parse({
      paymentMethodId: M.alipay,
      requireFapiao: true,
      fapiao: { type: { id: "general" }, serviceType: "translation", organizationName: "北京大学", contactPhone: "13800138000" },
    });
    expect(body.fields).toMatchObject({ requireFapiao: "on", "fapiao.type": "general", "fapiao.organizationName": "北京大学" });
    expect(paymentBody.parse({ paymentMethodId: M.alipay, requireFapiao: false }).fields.requireFapiao).toBe("no");
  });
});

describe("the stored fapiao form", () => {
  it("needs type, delivery timeline, title and a valid taxpayer number; instructions are optional", () => {
    expect(checkStoredFapiao({}).errors).toEqual({
      type: e("type-required"),
      deliveryTimeline: e("delivery-timeline-required"),
      title: e("title-required"),
      taxpayerNumber: e("taxpayer-number-required"),
    });
    const ok = checkStoredFapiao({ type: "general", deliveryTimeline: "monthly", title: "北京大学", taxpayerNumber: "12100000400000624D" });
    expect(ok.errors).toEqual({});
    expect(ok.value?.specialInstructions).toBeNull();
    expect(
      checkStoredFapiao({ type: "general", deliveryTimeline: "monthly", title: "北京大学", taxpayerNumber: "12100000400000624E" }).errors,
    ).toEqual({
      taxpayerNumber: e("fapiao-taxpayer-number-error"),
    });
  });

  it("tells the page's create and cancel forms apart", () => {
    expect(fapiaoPageSchema.safeParse({ intent: "cancel", id: "12" }).success).toBe(true);
    expect(fapiaoPageSchema.safeParse({ intent: "cancel", id: "x" }).success).toBe(false);
    expect(fapiaoPageSchema.safeParse({ intent: "create", type: "general" }).success).toBe(true);
  });
});

describe("rules, staff number and notices", () => {
  it("applies the order fapiao only to Chinese researchers on sites without fapiao after payment", () => {
    expect(orderFapiaoApplies({ enabled: true, userCountryIso2: "CN", allowsAfterPayment: false })).toBe(true);
    expect(orderFapiaoApplies({ enabled: true, userCountryIso2: "CN", allowsAfterPayment: true })).toBe(false);
    expect(orderFapiaoApplies({ enabled: false, userCountryIso2: "CN", allowsAfterPayment: false })).toBe(false);
    expect(orderFapiaoApplies({ enabled: true, userCountryIso2: "US", allowsAfterPayment: false })).toBe(false);
    expect(prepaymentTakesFapiao("PUS100001")).toBe(false);
    expect(prepaymentTakesFapiao("PCN100001")).toBe(true);
  });

  it("checks the fapiao number staff enter, and maps notices to their keys", () => {
    expect(fapiaoNumberError("")).toBe(e("fapiao-number-required"));
    expect(fapiaoNumberError("24332000000012345678")).toBeNull();
    expect(fapiaoNumberError("12 34")).toBe(e("fapiao-number-invalid"));
    expect(fapiaoNoticeKey("created-special")).toBe("fapiao:fapiao-creation-success-type-special");
    expect(fapiaoNoticeKey("cancelled-general")).toBe("fapiao:fapiao-cancellation-success-type-general");
    expect(fapiaoNoticeKey("created-<script>")).toBeNull();
  });
});
