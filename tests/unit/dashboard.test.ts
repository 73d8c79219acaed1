// Pure rules of the dashboard (issue 11 §3): filter dates and the page links.
import { describe, expect, it } from "vitest";
import { hasFilter, parseFilterDate } from "#common/orders/search";
import { paths } from "#common/paths";
import { pageWindow } from "#app/components/dashboard/OrderSearch";

describe("dashboard rules", () => {
  it("reads MM/dd/yyyy as a real calendar day only", () => {
    expect(parseFilterDate("11/23/2026")).toEqual([2026, 11, 23]);
    expect(parseFilterDate("02/29/2028")).toEqual([2028, 2, 29]);
    for (const bad of ["02/29/2026", "02/30/2026", "13/01/2026", "1/2/2026", "2026-11-23", "11/23/26", ""])
      expect(parseFilterDate(bad)).toBeNull();
  });

  it("builds the filter path with underscores and page numbers", () => {
    expect(paths.researcherOrders("en", { orderTitle: "soil", page: 1 })).toBe("/en/researcher/index/orders/_/soil/_/_/1");
    expect(paths.researcherOrders("cn", { xid: "RS1", from: "03/01/2026", to: "03/31/2026", page: 2 })).toBe(
      "/cn/researcher/index/orders/RS1/_/03%2F01%2F2026/03%2F31%2F2026/2",
    );
    expect(hasFilter({})).toBe(false);
    expect(hasFilter({ to: "03/31/2026" })).toBe(true);
  });

  it("shows the pages around the current one, the first and the last", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(6, 12)).toEqual([1, null, 4, 5, 6, 7, 8, null, 12]);
    expect(pageWindow(12, 12)).toEqual([1, null, 10, 11, 12]);
  });
});
