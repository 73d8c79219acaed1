// Money arithmetic of the pricing engine: pure, no catalogue or database needed.
import { describe, expect, it } from "vitest";
import { allocate, convertUsdCents, scaleDecimal } from "../../server/catalogue/money";

describe("money arithmetic", () => {
  it("scales decimals exactly and rounds half up", () => {
    expect(scaleDecimal("1.2500", 4)).toBe(12500);
    expect(scaleDecimal("0.040000", 6)).toBe(40000);
    expect(scaleDecimal("0.035", 6)).toBe(35000);
    expect(scaleDecimal("12.345", 2)).toBe(1235);
    expect(convertUsdCents(1, "0.5", 2)).toBe(1);
    expect(convertUsdCents(33, "150", 0)).toBe(50);
    expect(convertUsdCents(26000, "0.92000000", 2)).toBe(23920);
  });
  it("allocates an order discount over lines so the parts add up", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(2880, [26000, 10000])).toEqual([2080, 800]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
  });
});
