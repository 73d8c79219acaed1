// The pure display rules of issue 21's screenshot review: one name order for every page and document, and a
// provider's refusal as a reason the researcher reads in their language (the provider's text is for staff).
import { describe, expect, it } from "vitest";
import { personName } from "#common/names";
import { DECLINE_REASONS, declineReason } from "#common/payments/declines";
import { SITE_LANGS } from "#common/i18n";
import { fixedT } from "../../server/i18n";

describe("personName", () => {
  it("writes a name in Chinese or Japanese script family name first, without a space, on every page", () => {
    expect(personName("伟", "李", "cn")).toBe("李伟");
    expect(personName("花子", "山田", "jp")).toBe("山田花子");
    expect(personName("伟", "李", "en")).toBe("李伟");
    expect(personName("伟", "李", "br")).toBe("李伟");
  });

  it("keeps a Latin name in its own order with a space, also on Chinese and Japanese pages, and drops a missing part", () => {
    expect(personName("Ada", "Lovelace", "br")).toBe("Ada Lovelace");
    expect(personName("John", "Smith", "cn")).toBe("John Smith");
    expect(personName("John", "Smith", "jp")).toBe("John Smith");
    expect(personName("Ada", null, "jp")).toBe("Ada");
    expect(personName(" Ada ", "", "en")).toBe("Ada");
  });
});

describe("declineReason", () => {
  it("reads Braintree's codes, PayPal's issue and the providers' texts", () => {
    expect(declineReason("card", "2000", "Do Not Honor")).toBe("card-declined");
    expect(declineReason("card", "2001", "Insufficient Funds")).toBe("insufficient-funds");
    expect(declineReason("card", "91565", "Unknown or expired payment_method_nonce.")).toBe("card-details-expired");
    expect(declineReason("card", null, "Unknown or expired payment_method_nonce.")).toBe("card-details-expired");
    expect(declineReason("card", "gateway_rejected", "Gateway Rejected: fraud")).toBe("card-rejected");
    expect(declineReason("card", "3000", "Processor Network Unavailable - Try Again")).toBe("provider-unavailable");
    expect(declineReason("card", null, "Do Not Honor")).toBe("card-declined");
    expect(declineReason("paypal", null, "INSTRUMENT_DECLINED")).toBe("paypal-declined");
    expect(declineReason("unionpay", null, "provider-unavailable")).toBe("provider-unavailable");
    expect(declineReason("alipay", null, "cancelled")).toBe("cancelled");
    expect(declineReason("unionpay", null, "Transaction failed [11]")).toBe("failed");
  });

  it("has a real translation of every reason in every language", () => {
    for (const lang of SITE_LANGS) {
      const t = fixedT(lang, "payment");
      for (const reason of DECLINE_REASONS) {
        const text = String(t(`declines.${reason}`));
        expect(text, `${lang} ${reason}`).not.toBe(`declines.${reason}`);
        if (lang !== "en") expect(text, `${lang} ${reason}`).not.toBe(String(fixedT("en", "payment")(`declines.${reason}`)));
      }
    }
  });
});
