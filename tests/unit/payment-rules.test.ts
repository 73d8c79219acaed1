// Which methods a payment form offers (spec 2 §6, spec 3 §6): one function, every rule.
import { describe, expect, it } from "vitest";
import { PAYMENT_METHOD as M } from "#common/payments/methods";
import { availableMethods, methodAllowed, offersBrazilChoice, type MethodContext } from "#server/payments/rules";

const US = [3, 6, 9, 1, 4, 26];
const CN = [3, 19, 25, 21, 9, 27, 28, 1, 4, 26];
const BR = [3, 6, 23, 22, 20, 9, 1, 4, 26];

const ctx = (over: Partial<MethodContext> = {}): MethodContext => ({
  purpose: "order",
  localizationMethods: US,
  total: 10_000,
  impersonating: false,
  adminCreated: false,
  multimedia: false,
  requireFapiao: false,
  brazilChoice: null,
  usableCredits: false,
  voucherApplied: false,
  localEntity: false,
  providers: new Set(["card", "paypal", "alipay", "wechat", "unionpay", "boleto", "allpago"]),
  prepayBankTransfer: false,
  ...over,
});
const ids = (c: MethodContext) => availableMethods(c).map((m) => m.id);

describe("payment method rules", () => {
  it("offers no method whose provider cannot take payments here (production without credentials, issue 21 §3)", () => {
    const none = ctx({ providers: new Set() });
    expect(ids(none)).toEqual([M.bankTransfer]);
    expect(ids({ ...none, localizationMethods: CN })).toEqual([M.bankTransfer]);
    expect(ids({ ...none, localizationMethods: BR })).toEqual([M.bankTransfer]);
    expect(methodAllowed(none, M.creditCard)).toBe(false);
    expect(methodAllowed(none, M.paypal)).toBe(false);
    expect(ids(ctx({ providers: new Set(["paypal"]) }))).toEqual([M.paypal, M.bankTransfer]);
  });

  it("offers the localisation's methods in its order, without the situational ones", () => {
    expect(ids(ctx())).toEqual([M.creditCard, M.paypal, M.bankTransfer]);
    expect(ids(ctx({ localizationMethods: CN }))).toEqual([M.creditCard, M.alipay, M.wechat, M.unionpay, M.bankTransfer]);
  });

  it("makes the method free at a total of 0 (or the voucher that covered it), and clears it when positive again", () => {
    expect(ids(ctx({ total: 0 }))).toEqual([M.free]);
    expect(ids(ctx({ total: -5 }))).toEqual([M.free]);
    expect(ids(ctx({ total: 0, voucherApplied: true }))).toEqual([M.voucher]);
    expect(ids(ctx({ total: 1 }))).not.toContain(M.free);
  });

  it("shows credits only when they are usable, never for prepay or digital purchases", () => {
    expect(ids(ctx({ usableCredits: true }))).toContain(M.credits);
    expect(ids(ctx({ usableCredits: false }))).not.toContain(M.credits);
    expect(ids(ctx({ usableCredits: true, purpose: "prepay" }))).not.toContain(M.credits);
    expect(ids(ctx({ usableCredits: true, purpose: "digital" }))).not.toContain(M.credits);
  });

  it("prepay excludes Alipay and vouchers and shows bank transfer disabled (spec 2 §6, ADR 067); digital excludes bank transfer and boleto", () => {
    const prepay = availableMethods(ctx({ purpose: "prepay", localizationMethods: CN }));
    expect(prepay.map((m) => m.id)).not.toContain(M.alipay);
    expect(prepay.find((m) => m.id === M.bankTransfer)).toEqual({ id: M.bankTransfer, disabled: true });
    expect(methodAllowed(ctx({ purpose: "prepay", localizationMethods: CN }), M.bankTransfer)).toBe(false);
    // Config prepayBankTransfer: the installation lets it be chosen (the retainer issued unpaid, ADR 040).
    const enabled = ctx({ purpose: "prepay", localizationMethods: CN, prepayBankTransfer: true });
    expect(availableMethods(enabled).find((m) => m.id === M.bankTransfer)).toEqual({ id: M.bankTransfer, disabled: false });
    expect(methodAllowed(enabled, M.bankTransfer)).toBe(true);
    // Only the prepay form: an order still takes bank transfer.
    expect(methodAllowed(ctx({ localizationMethods: CN }), M.bankTransfer)).toBe(true);
    expect(ids(ctx({ purpose: "prepay", localizationMethods: BR, brazilChoice: "allpago" }))).toContain(M.boleto);
    const digital = ids(ctx({ purpose: "digital", localizationMethods: BR }));
    expect(digital).not.toContain(M.bankTransfer);
    expect(digital).not.toContain(M.boleto);
  });

  it("multimedia orders: bank transfer only for staff acting for the user, every other method for the user", () => {
    expect(ids(ctx({ multimedia: true, impersonating: true }))).toEqual([M.bankTransfer]);
    expect(ids(ctx({ multimedia: true }))).toEqual([M.creditCard, M.paypal]);
  });

  it("admin-created orders are billed by invoice (or credits)", () => {
    expect(ids(ctx({ adminCreated: true }))).toEqual([M.bankTransfer]);
    expect(ids(ctx({ adminCreated: true, usableCredits: true }))).toEqual([M.bankTransfer, M.credits]);
  });

  it("with a fapiao required only bank transfer, Alipay and UnionPay remain", () => {
    expect(ids(ctx({ localizationMethods: CN, requireFapiao: true }))).toEqual([M.alipay, M.unionpay, M.bankTransfer]);
  });

  it("the Brazil choice: FAPESP → card and bank transfer; Allpago → the local methods; none → the international ones", () => {
    expect(offersBrazilChoice(BR)).toBe(true);
    expect(offersBrazilChoice(US)).toBe(false);
    expect(ids(ctx({ localizationMethods: BR, brazilChoice: "fapesp" }))).toEqual([M.creditCard, M.bankTransfer]);
    expect(ids(ctx({ localizationMethods: BR, brazilChoice: "allpago" }))).toEqual([M.allpagoCard, M.allpagoPaypal, M.boleto]);
    expect(ids(ctx({ localizationMethods: BR, brazilChoice: "no-requirements" }))).toEqual([M.creditCard, M.paypal, M.bankTransfer]);
  });

  it("a boleto only for a charge in reais: never offered for a dollar invoice it could not issue", () => {
    const local = (chargeCurrencyIso: string | null) => ids(ctx({ localizationMethods: BR, brazilChoice: "allpago", chargeCurrencyIso }));
    expect(local("BRL")).toContain(M.boleto);
    expect(local(null)).toContain(M.boleto);
    expect(local("USD")).toEqual([M.allpagoCard, M.allpagoPaypal]);
    expect(ids(ctx({ localizationMethods: BR, chargeCurrencyIso: "USD" }))).not.toContain(M.boleto);
  });

  it("the local entity's methods only for accounts migrated to it", () => {
    expect(ids(ctx({ localizationMethods: CN }))).not.toContain(M.localEntityTransfer);
    expect(ids(ctx({ localizationMethods: CN, localEntity: true }))).toEqual(
      expect.arrayContaining([M.localEntityTransfer, M.localEntityOnline]),
    );
  });

  it("paying issued invoices offers no method that would bill another invoice, and no voucher", () => {
    const invoices = ids(ctx({ purpose: "invoices", localizationMethods: CN, localEntity: true }));
    expect(invoices).toEqual([M.creditCard, M.alipay, M.wechat, M.unionpay]);
  });
});
