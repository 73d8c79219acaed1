// The one money module (#common/money, ADR 054) and the pricing arithmetic beside it: pure, no catalogue or
// database needed.
import { describe, expect, it } from "vitest";
import {
  convertMinor,
  crossRate,
  currencyDigits,
  divRound,
  formatMoney,
  majorInputText,
  majorText,
  minorOf,
  parseDecimal,
  parseMajor,
  rescaleMinor,
  scaleDecimal,
  USD,
  type CurrencyRate,
} from "#common/money";
import { allocate } from "../../server/catalogue/money";

const BRL: CurrencyRate = { isoCode: "BRL", numDecimals: 2, rate: "5.00000000" };
const EUR: CurrencyRate = { isoCode: "EUR", numDecimals: 2, rate: "0.92000000" };
const JPY: CurrencyRate = { isoCode: "JPY", numDecimals: 0, rate: "150" };
const BHD: CurrencyRate = { isoCode: "BHD", numDecimals: 3, rate: "0.376" };

describe("parseMajor: typed and provider amounts to minor units", () => {
  it("reads a dot or a comma as the decimal mark, with at most the currency's decimals", () => {
    expect(parseMajor("12.5", 2)).toBe(1250);
    expect(parseMajor("12,05", 2)).toBe(1205);
    expect(parseMajor("  7.10 ", 2)).toBe(710);
    expect(parseMajor("0.29", 2)).toBe(29);
    expect(parseMajor("007", 2)).toBe(700);
    expect(parseMajor("1.234", 2)).toBeNull();
  });
  it("knows currencies without decimals (JPY, KRW) and with three (BHD)", () => {
    expect(parseMajor("1000", 0)).toBe(1000);
    expect(parseMajor("10.5", 0)).toBeNull();
    expect(parseMajor("1500.0", 0)).toBeNull();
    expect(parseMajor("1.234", 3)).toBe(1234);
    expect(parseMajor("1,5", 3)).toBe(1500);
    expect(parseMajor("1.2345", 3)).toBeNull();
  });
  it("refuses a fraction longer than the currency's, even of zeros: '1.000' reais may be a thousand", () => {
    expect(parseMajor("1.000", 2)).toBeNull();
    expect(parseMajor("10.500", 2)).toBeNull();
    expect(parseMajor("1,000", 0)).toBeNull();
  });
  it("refuses everything else: empty, signs, exponents, grouping, inner spaces, a bare mark", () => {
    for (const text of [
      "",
      "   ",
      "-3",
      "+3",
      "1e3",
      "1E3",
      "1.234,56",
      "1,234.56",
      "1 000",
      "12.",
      ".5",
      ",5",
      "abc",
      "0x10",
      "Infinity",
      "NaN",
      "１２",
    ])
      expect(parseMajor(text, 2), text).toBeNull();
  });
  it("refuses zero unless a provider states it, and anything beyond 12 whole digits or 2^53", () => {
    expect(parseMajor("0", 2)).toBeNull();
    expect(parseMajor("0.00", 2)).toBeNull();
    expect(parseMajor("0.00", 2, { allowZero: true })).toBe(0);
    expect(parseMajor("999999999999.99", 2)).toBe(99_999_999_999_999);
    expect(parseMajor("1000000000000", 2)).toBeNull();
    expect(parseMajor("9007199254740993", 0)).toBeNull();
    expect(parseMajor("999999999999.9999", 4)).toBeNull();
  });
  it("prefills amount inputs with the currency's own decimal mark, which parseMajor reads back", () => {
    expect(majorInputText(84000, { isoCode: "BRL", numDecimals: 2 })).toBe("840,00");
    expect(majorInputText(84050, { isoCode: "EUR", numDecimals: 2 })).toBe("840,50");
    expect(majorInputText(84000, { isoCode: "USD", numDecimals: 2 })).toBe("840.00");
    expect(majorInputText(1500, { isoCode: "JPY", numDecimals: 0 })).toBe("1500");
    expect(parseMajor(majorInputText(123456, { isoCode: "BRL", numDecimals: 2 }), 2)).toBe(123456);
  });

  it("reads back what majorText writes", () => {
    for (const [minor, d] of [
      [1, 2],
      [123456, 2],
      [15000, 0],
      [1001, 3],
      [99_999_999_999_999, 2],
    ] as const)
      expect(parseMajor(majorText(minor, d), d)).toBe(minor);
  });
});

describe("writing amounts", () => {
  it("majorText: plain text with all the currency's decimals, exact up to 2^53", () => {
    expect(majorText(1234, 2)).toBe("12.34");
    expect(majorText(5, 2)).toBe("0.05");
    expect(majorText(-5, 2)).toBe("-0.05");
    expect(majorText(0, 2)).toBe("0.00");
    expect(majorText(1500, 0)).toBe("1500");
    expect(majorText(1, 3)).toBe("0.001");
    // (x / 100).toFixed(2), as the staff pages wrote input values, gave "89999999999999.98" here.
    expect(majorText(8_999_999_999_999_999, 2)).toBe("89999999999999.99");
    expect(majorText(Number.MAX_SAFE_INTEGER, 2)).toBe("90071992547409.91");
    expect(() => majorText(1.5, 2)).toThrow(TypeError);
  });
  it("formatMoney: euro and real with comma decimals, the others with a dot; whole amounts drop decimals", () => {
    const fmt = { USD, BRL: { ...BRL, sign: "R$" }, JPY: { ...JPY, sign: "¥" }, BHD: { ...BHD, sign: "BD" } };
    expect(formatMoney(120050, fmt.USD)).toBe("$1,200.50");
    expect(formatMoney(120000, fmt.USD)).toBe("$1,200");
    expect(formatMoney(145600, fmt.BRL)).toBe("R$1.456");
    expect(formatMoney(145650, fmt.BRL)).toBe("R$1.456,50");
    expect(formatMoney(1500000, fmt.JPY)).toBe("¥1,500,000");
    expect(formatMoney(1005, fmt.BHD)).toBe("BD1.005");
    expect(formatMoney(-4050, fmt.USD)).toBe("-$40.50");
    expect(formatMoney(-5, fmt.USD)).toBe("-$0.05");
    expect(() => formatMoney(10.5, fmt.USD)).toThrow(TypeError);
  });
  it("knows a currency's digits by its code", () => {
    expect(currencyDigits("USD")).toBe(2);
    expect(currencyDigits("JPY")).toBe(0);
    expect(currencyDigits("KRW")).toBe(0);
    expect(currencyDigits("BHD")).toBe(3);
    expect(currencyDigits("??")).toBe(2);
  });
});

describe("exact decimals", () => {
  it("parses rates and configured numbers without floats, exponents included", () => {
    expect(parseDecimal("12.3400")).toEqual({ units: 123400n, scale: 4 });
    expect(parseDecimal("-0.5")).toEqual({ units: -5n, scale: 1 });
    expect(parseDecimal(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(parseDecimal(1e21)).toEqual({ units: 10n ** 21n, scale: 0 });
    expect(parseDecimal("2.5e3")).toEqual({ units: 2500n, scale: 0 });
    expect(() => parseDecimal("")).toThrow(TypeError);
    expect(() => parseDecimal("1.2.3")).toThrow(TypeError);
  });
  it("scales decimals exactly and rounds half away from zero", () => {
    expect(scaleDecimal("1.2500", 4)).toBe(12500);
    expect(scaleDecimal("0.040000", 6)).toBe(40000);
    expect(scaleDecimal("0.035", 6)).toBe(35000);
    expect(scaleDecimal("12.345", 2)).toBe(1235);
    expect(scaleDecimal("-12.345", 2)).toBe(-1235);
    // 1.005 × 100 is 100.49999999999999 in binary floating point: Math.round gave 100.
    expect(minorOf(1.005, 2)).toBe(101);
    expect(minorOf(100, 2)).toBe(10000);
    expect(minorOf(1_000_000, 0)).toBe(1_000_000);
  });
  it("divides with the rounding asked for", () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(4n, 3n)).toBe(1n);
    expect(divRound(4n, 3n, "up")).toBe(2n);
    expect(divRound(6n, 3n, "up")).toBe(2n);
    expect(() => divRound(1n, 0n)).toThrow(RangeError);
  });
});

describe("conversion through USD", () => {
  it("from USD cents to a currency and back, rounded half away from zero", () => {
    expect(convertMinor(1, USD, { isoCode: "X", numDecimals: 2, rate: "0.5" })).toBe(1);
    expect(convertMinor(33, USD, { isoCode: "JPY", numDecimals: 0, rate: "150" })).toBe(50);
    expect(convertMinor(26000, USD, EUR)).toBe(23920);
    expect(convertMinor(23920, EUR, USD)).toBe(26000);
    expect(convertMinor(145600, BRL, USD)).toBe(29120);
    expect(convertMinor(1000, EUR, JPY)).toBe(1630);
    expect(convertMinor(1000, BHD, USD)).toBe(266);
    expect(convertMinor(500, USD, USD)).toBe(500);
  });
  it("rounds up where what is received must cover a debt", () => {
    // 1001 centavos at 5 BRL per USD are 200.2 cents.
    expect(convertMinor(1001, BRL, USD)).toBe(200);
    expect(convertMinor(1001, BRL, USD, "up")).toBe(201);
  });
  it("stays exact on amounts a float would round", () => {
    // 2^53 − 1 centavos; a float division loses the last digits.
    expect(convertMinor(Number.MAX_SAFE_INTEGER, BRL, BRL)).toBe(Number.MAX_SAFE_INTEGER);
    expect(convertMinor(9_007_199_254_740_990, BRL, USD)).toBe(1_801_439_850_948_198);
  });
  it("rescales minor units between digit counts", () => {
    expect(rescaleMinor(1500, 0, 2)).toBe(150000);
    expect(rescaleMinor(1005, 3, 2)).toBe(101);
    expect(rescaleMinor(1004, 3, 2)).toBe(100);
    expect(rescaleMinor(1234, 2, 2)).toBe(1234);
  });
  it("states the cross rate between two currencies exactly, with 8 decimals", () => {
    expect(crossRate(BRL, USD)).toBe("0.20000000");
    expect(crossRate(USD, BRL)).toBe("5.00000000");
    expect(crossRate(BRL, EUR)).toBe("0.18400000");
    expect(crossRate(JPY, USD)).toBe("0.00666667");
    expect(crossRate({ isoCode: "A", numDecimals: 2, rate: "3" }, { isoCode: "B", numDecimals: 2, rate: "1" })).toBe("0.33333333");
  });
});

describe("pricing arithmetic", () => {
  it("allocates an order discount over lines so the parts add up", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(2880, [26000, 10000])).toEqual([2080, 800]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
  });
});
