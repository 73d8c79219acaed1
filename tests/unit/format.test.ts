import { describe, expect, it } from "vitest";
import { currencyName, formatMoney, formatDateTime, formatDate, formatFilterDate } from "../../app/common/format";

const USD = { isoCode: "USD", sign: "$", numDecimals: 2 };
const EUR = { isoCode: "EUR", sign: "€", numDecimals: 2 };
const BRL = { isoCode: "BRL", sign: "R$", numDecimals: 2 };
const JPY = { isoCode: "JPY", sign: "¥", numDecimals: 0 };

describe("formatMoney (spec 2 §9)", () => {
  it("uses comma thousands and dot decimals for the dollar", () => {
    expect(formatMoney(123456, USD)).toBe("$1,234.56");
    expect(formatMoney(100000005, USD)).toBe("$1,000,000.05");
  });
  it("uses dot thousands and comma decimals for euro and real", () => {
    expect(formatMoney(123456, EUR)).toBe("€1.234,56");
    expect(formatMoney(123450, BRL)).toBe("R$1.234,50");
  });
  it("drops decimals of whole amounts", () => {
    expect(formatMoney(120000, USD)).toBe("$1,200");
    expect(formatMoney(120000, EUR)).toBe("€1.200");
    expect(formatMoney(0, USD)).toBe("$0");
  });
  it("handles zero-decimal currencies and negative amounts", () => {
    expect(formatMoney(15000, JPY)).toBe("¥15,000");
    expect(formatMoney(-4050, USD)).toBe("-$40.50");
  });
  it("refuses non-integer minor units", () => {
    expect(() => formatMoney(10.5, USD)).toThrow(TypeError);
  });
});

describe("dates", () => {
  const when = new Date("2026-03-05T15:07:00Z");
  it("shows day month year with 12-hour time in English", () => {
    expect(formatDateTime(when, "en")).toBe("5 Mar 2026, 3:07 PM");
    expect(formatDate(when, "en")).toBe("5 Mar 2026");
  });
  // Spec 3 §9, product-wide: "Dates display as day, month, year with 12-hour time" (issue 22 item 2, ADR 062).
  it("keeps day month year order with 12-hour time in Portuguese and Spanish", () => {
    expect(formatDateTime(when, "br")).toMatch(/^5 mar\.? 2026, 3:07 PM$/);
    expect(formatDateTime(when, "es")).toMatch(/^5 mar\.? 2026, 3:07 p\.\s?m\.$/);
    expect(formatDateTime(when, "br")).not.toContain("15:07");
  });
  it("uses the native order with 12-hour time in Chinese and Japanese", () => {
    expect(formatDateTime(when, "cn")).toBe("2026年3月5日 下午3:07");
    expect(formatDate(when, "jp")).toBe("2026年3月5日");
    expect(formatDateTime(when, "jp")).toBe("2026年3月5日 午後3:07");
  });
  it("names currencies in the page's language", () => {
    expect(currencyName("GBP", "cn")).toBe("英镑");
    expect(currencyName("CNY", "br")).toBe("Yuan chinês");
    expect(currencyName("GBP", "en")).toBe("British Pound");
    expect(currencyName("XYZ", "cn", "Fallback")).toBe("Fallback");
  });
  it("formats the filter date as MM/dd/yyyy", () => {
    expect(formatFilterDate(when)).toBe("03/05/2026");
  });
  it("respects the time zone", () => {
    expect(formatDateTime(when, "en", "Asia/Shanghai")).toBe("5 Mar 2026, 11:07 PM");
  });
});
