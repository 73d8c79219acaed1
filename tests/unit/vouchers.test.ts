// Voucher arithmetic (issue 12 §7, spec 2 §5): a percentage rounded half up, a fixed amount converted through
// USD at the day's rates, and the amount payable floored at 0; the code as typed and the validity rules.
import { describe, expect, it } from "vitest";
import { convertMinor, normalizeVoucherCode, voucherAmountOff, voucherProblem, type VoucherRow } from "../../server/vouchers";
import { voucherOutcome } from "../../app/common/vouchers/schemas";

const USD = { isoCode: "USD", numDecimals: 2, rate: "1.00000000" };
const EUR = { isoCode: "EUR", numDecimals: 2, rate: "0.92000000" };
const JPY = { isoCode: "JPY", numDecimals: 0, rate: "150.00000000" };

const fixed = (amount: number, currencyIso: string) => ({ percent: null, amount, currencyIso });
const percent = (p: number) => ({ percent: p, amount: null, currencyIso: null });

describe("voucher discount", () => {
  it("takes a percentage of the amount payable, rounded half up", () => {
    expect(voucherAmountOff(percent(10), 26000, USD)).toBe(2600);
    expect(voucherAmountOff(percent(15), 333, USD)).toBe(50); // 49.95 → 50
    expect(voucherAmountOff(percent(15), 330, USD)).toBe(50); // 49.5 → 50 (half up)
    expect(voucherAmountOff(percent(33), 101, USD)).toBe(33); // 33.33 → 33
    expect(voucherAmountOff(percent(1), 49, USD)).toBe(0); // 0.49 → 0
    expect(voucherAmountOff(percent(100), 12345, USD)).toBe(12345);
  });

  it("never takes more than is payable: the total is floored at 0", () => {
    expect(voucherAmountOff(fixed(5000, "USD"), 3000, USD)).toBe(3000);
    expect(voucherAmountOff(fixed(5000, "USD"), 0, USD)).toBe(0);
    expect(voucherAmountOff(fixed(5000, "USD"), -10, USD)).toBe(0);
    expect(voucherAmountOff(fixed(2000, "USD"), 3000, USD)).toBe(2000);
  });

  it("converts a fixed amount in another currency through USD at the two rates", () => {
    // 20.00 USD at 0.92 EUR per USD: 18.40 EUR.
    expect(convertMinor(2000, USD, EUR)).toBe(1840);
    // 18.40 EUR back to USD: 20.00.
    expect(convertMinor(1840, EUR, USD)).toBe(2000);
    // 10.00 EUR in yen (no decimals): 10 / 0.92 × 150 = 1630.43… → 1630.
    expect(convertMinor(1000, EUR, JPY)).toBe(1630);
    expect(voucherAmountOff(fixed(2000, "USD"), 100000, EUR, USD)).toBe(1840);
    // Without the voucher currency's rate, a foreign fixed amount gives nothing rather than a guess.
    expect(voucherAmountOff(fixed(2000, "USD"), 100000, EUR)).toBe(0);
  });
});

describe("voucher codes and rules", () => {
  it("reads a code trimmed, in any case, percent-decoded", () => {
    expect(normalizeVoucherCode("  welcome-25 ")).toBe("WELCOME-25");
    expect(normalizeVoucherCode("%20spring%2D10%20")).toBe("SPRING-10");
    expect(normalizeVoucherCode("100%")).toBe("100%"); // a lone % is not an escape: kept as typed
    expect(normalizeVoucherCode(undefined)).toBe("");
  });

  it("refuses inactive, expired and used-up vouchers, in that order", () => {
    const now = new Date("2026-11-24T12:00:00Z");
    const row = {
      id: 1,
      code: "X",
      description: null,
      currency_iso: null,
      amount: null,
      percent: 10,
      max_uses: 2,
      times_used: 1,
      valid_until: new Date("2026-11-24T23:59:59Z"),
      active: true,
      created_by: null,
      created_at: now,
    } satisfies VoucherRow;
    expect(voucherProblem(row, now)).toBeNull();
    expect(voucherProblem({ ...row, times_used: 2 }, now)).toBe("voucher-used-up");
    expect(voucherProblem({ ...row, valid_until: new Date("2026-11-24T11:59:59Z"), times_used: 2 }, now)).toBe("voucher-expired");
    expect(voucherProblem({ ...row, active: false, valid_until: new Date(0) }, now)).toBe("voucher-inactive");
    expect(voucherProblem({ ...row, max_uses: null, valid_until: null, times_used: 999 }, now)).toBeNull();
  });

  it("accepts only known outcome codes on the payment step's ?voucher=", () => {
    expect(voucherOutcome("voucher-applied")).toBe("voucher-applied");
    expect(voucherOutcome("voucher-expired")).toBe("voucher-expired");
    expect(voucherOutcome("<script>")).toBeNull();
    expect(voucherOutcome(null)).toBeNull();
  });
});
