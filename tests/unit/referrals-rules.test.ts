// Pure rules of issue 25 items 3 and 4 (ADR 076): same-person checks, masked names, the share links (plain links,
// the referral link encoded), the card sandbox's instrument identity, the photo's magic bytes.
import { describe, expect, it } from "vitest";
import { canonicalEmail, maskedName, normalizedAddress, samePersonReason } from "../../server/referrals/rules";
import { referralAmountUsdCents } from "../../server/referrals/register";
import { shareLinks } from "../../app/common/referrals/share";
import { instrumentOf } from "../../server/payments/instruments";
import { sandboxCardIdentity, TEST_CARD_NONCES } from "../../server/payments/providers/card";
import { sniffImageType } from "../../server/testimonials/photo";

describe("same person", () => {
  it("normalises an address: case, spaces and punctuation do not matter", () => {
    const a = normalizedAddress({ address1: "12 Main St., Apt #4", city: "Springfield", zip: "12 345", countryId: 1 });
    expect(a).toBe(normalizedAddress({ address1: "12 main st apt 4", city: "SPRINGFIELD", zip: "12345", country_id: 1 }));
    expect(a).not.toBe(normalizedAddress({ address1: "12 Main St., Apt #4", city: "Springfield", zip: "12345", countryId: 2 }));
    expect(normalizedAddress({ address1: "  ", city: "x" })).toBeNull();
  });

  it("refuses a shared instrument or address; nothing shared is fine", () => {
    expect(samePersonReason({ instruments: ["card:a"], addresses: [] }, { instruments: ["card:a"], addresses: [] })).toBe(
      "same-payment-instrument",
    );
    expect(
      samePersonReason(
        { instruments: [], addresses: [{ address1: "1 Road", zip: "9" }] },
        { instruments: ["card:b"], addresses: [{ address1: "1 road", zip: "9" }] },
      ),
    ).toBe("same-billing-address");
    expect(
      samePersonReason(
        { instruments: ["card:a"], addresses: [{ address1: "1 Road" }] },
        { instruments: ["card:b"], addresses: [{ address1: "2 Road" }] },
      ),
    ).toBeNull();
    expect(samePersonReason({ instruments: [], addresses: [{}] }, { instruments: [], addresses: [{}] })).toBeNull();
  });

  it("canonical mailboxes ignore dots and +tags, not the domain", () => {
    expect(canonicalEmail("Jane.Doe+ref@Uni.edu")).toBe("janedoe@uni.edu");
    expect(canonicalEmail("jane@uni.edu")).not.toBe(canonicalEmail("jane@other.edu"));
  });

  it("masks a colleague's name", () => {
    expect(maskedName("Maria", "Silva", "m@x.org")).toBe("Maria S.");
    // Family name first in Chinese script, as everywhere a name is shown: 小明 of the family 李 is "李**".
    expect(maskedName("小明", "李", "l@x.cn")).toBe("李**");
    expect(maskedName("花子", "山田", "h@x.jp")).toBe("山田**");
    expect(maskedName("", "", "someone@x.org")).toBe("s***@x.org");
  });

  it("reads the configured amount as USD cents", () => {
    expect(referralAmountUsdCents(40)).toBe(4000);
    expect(referralAmountUsdCents("12.5")).toBe(1250);
    expect(referralAmountUsdCents(0)).toBeNull();
    expect(referralAmountUsdCents(-3)).toBeNull();
    expect(referralAmountUsdCents("x")).toBeNull();
  });
});

describe("share links", () => {
  it("are plain links with the referral link encoded, three first and the rest under more", () => {
    const link = "https://portal.example/en/register?referralCode=AB12&x=1";
    const { main, more } = shareLinks(link, "Try this & save", "Subject");
    expect(main.map((s) => s.id)).toEqual(["email", "whatsapp", "x"]);
    expect(more.map((s) => s.id)).toEqual(expect.arrayContaining(["linkedin", "weibo", "line"]));
    for (const s of [...main, ...more]) {
      expect(s.href).toMatch(/^(mailto:|https:\/\/)/);
      expect(s.href).toContain(encodeURIComponent(link));
      expect(s.href).not.toContain("&x=1");
    }
    expect(main[0].href).toContain("subject=Subject");
  });
});

describe("payment instruments", () => {
  it("the card sandbox gives one identity per test card", () => {
    const a = sandboxCardIdentity("fake-valid-nonce");
    expect(a.last4).toBe("1111");
    expect(sandboxCardIdentity("fake-valid-nonce")).toEqual(a);
    expect(sandboxCardIdentity(TEST_CARD_NONCES["5105105105105100"]).uniqueNumberIdentifier).not.toBe(a.uniqueNumberIdentifier);
  });

  it("instrumentOf names card, PayPal payer and Allpago brand+last4; nothing otherwise", () => {
    expect(instrumentOf("card", { uniqueNumberIdentifier: "u1" })).toEqual({ instrument: "card:u1" });
    expect(instrumentOf("paypal", { payerId: "P9" })).toEqual({ instrument: "paypal:P9" });
    expect(instrumentOf("allpago", { brand: "VISA", last4: "0000" })).toEqual({ instrument: "allpago:VISA:0000" });
    expect(instrumentOf("card", { cardType: "Visa" })).toEqual({});
    expect(instrumentOf("alipay", undefined)).toEqual({});
  });
});

describe("photo magic bytes", () => {
  it("recognises JPEG, PNG and WebP by content only", () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(new Uint8Array(Buffer.from("RIFF\0\0\0\0WEBPVP8 ")))).toBe("image/webp");
    expect(sniffImageType(new Uint8Array(Buffer.from("GIF89a......")))).toBeNull();
    expect(sniffImageType(new Uint8Array(Buffer.from("<svg xmlns=")))).toBeNull();
    expect(sniffImageType(new Uint8Array([]))).toBeNull();
  });
});
