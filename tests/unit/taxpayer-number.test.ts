// The taxpayer-number validator (app/common/fapiao/taxpayer.ts) on real, published codes and on the same codes
// with one character changed: a wrong check character must be refused.
import { describe, expect, it } from "vitest";
import {
  isOrganizationCode,
  isResidentId,
  isTaxpayerNumber,
  isUnifiedSocialCreditCode,
  normalizeTaxpayerNumber,
  organizationCheck,
  usccCheck,
} from "#common/fapiao/taxpayer";

// Unified social credit codes as the companies publish them (business licences, annual reports).
const REAL_USCC = {
  "Alibaba (China) Co., Ltd.": "91330100716105852F",
  "Huawei Technologies Co., Ltd.": "914403001922038216",
  "Shenzhen Tencent Computer Systems Co., Ltd.": "91440300708461136T",
  "Tencent Technology (Shenzhen) Co., Ltd. (X in its organisation code)": "9144030071526726XG",
  "Beijing Baidu Netcom Science and Technology Co., Ltd.": "91110000802100433B",
  "Xiaomi Communications Co., Ltd.": "91110108551385082Q",
  "China Petroleum & Chemical Corporation (check character X)": "91110000710925462X",
  "GB 32100-2015's own example (registration letter in the organisation code)": "91350100M000100Y43",
};

describe("unified social credit codes", () => {
  it.each(Object.entries(REAL_USCC))("accepts %s", (_name, code) => {
    expect(isUnifiedSocialCreditCode(code)).toBe(true);
    expect(isTaxpayerNumber(code)).toBe(true);
  });

  it("accepts the check characters 0 and Y that the npm stdnum validator was measured to refuse", () => {
    // Built with the standard's weights on a valid organisation code (10000028-6 and 10000016-3).
    expect(usccCheck("91110000100000286")).toBe("0");
    expect(isTaxpayerNumber("911100001000002860")).toBe(true);
    expect(usccCheck("91110000100000163")).toBe("Y");
    expect(isTaxpayerNumber("91110000100000163Y")).toBe(true);
  });

  it.each(Object.values(REAL_USCC))("refuses %s with another check character", (code) => {
    const wrong = code.slice(0, 17) + (code[17] === "1" ? "2" : "1");
    expect(isUnifiedSocialCreditCode(wrong)).toBe(false);
    expect(isTaxpayerNumber(wrong)).toBe(false);
  });

  it("refuses a code whose organisation code check is wrong even when the final check is recomputed", () => {
    // Huawei's organisation code 19220382-1 with its check changed to 2, the code's own check made right again.
    const first17 = "9144030019220382" + "2";
    const forged = first17 + usccCheck(first17);
    expect(isOrganizationCode("192203822")).toBe(false);
    expect(isUnifiedSocialCreditCode(forged)).toBe(false);
  });

  it("refuses characters outside the code's alphabet (I, O, S, V, Z) and lower case", () => {
    expect(isUnifiedSocialCreditCode("91330100716105852O")).toBe(false);
    expect(isTaxpayerNumber("91330100716105852f")).toBe(false);
    expect(normalizeTaxpayerNumber(" 9133 0100-7161 05852f ")).toBe("91330100716105852F");
  });
});

describe("organisation codes and the older 15-character numbers", () => {
  it("computes GB 11714 checks, 10 as X and 11 as 0", () => {
    expect(organizationCheck("71610585")).toBe("2");
    expect(organizationCheck("71526726")).toBe("X");
    expect(isOrganizationCode("716105852")).toBe(true);
  });

  it("accepts region code + organisation code, refuses a wrong check", () => {
    expect(isTaxpayerNumber("330100716105852")).toBe(true);
    expect(isTaxpayerNumber("330100716105853")).toBe(false);
  });
});

describe("personal resident ID numbers", () => {
  it("accepts GB 11643's example (check X) as an 18-character number and in the 20-character form", () => {
    expect(isResidentId("11010519491231002X")).toBe(true);
    expect(isTaxpayerNumber("11010519491231002X")).toBe(true);
    expect(isTaxpayerNumber("11010519491231002X01")).toBe(true);
  });

  it("refuses a wrong MOD 11-2 check", () => {
    expect(isResidentId("110105194912310021")).toBe(false);
    expect(isTaxpayerNumber("110105194912310021")).toBe(false);
    expect(isTaxpayerNumber("11010519491231002101")).toBe(false);
  });
});

describe("shape", () => {
  it("takes 6 to 20 upper-case letters or digits", () => {
    expect(isTaxpayerNumber("ABC123")).toBe(true);
    expect(isTaxpayerNumber("ABC12")).toBe(false);
    expect(isTaxpayerNumber("A".repeat(21))).toBe(false);
    expect(isTaxpayerNumber("ABC 123")).toBe(false);
    expect(isTaxpayerNumber("纳税人识别号")).toBe(false);
  });
});
