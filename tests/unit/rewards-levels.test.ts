// Loyalty level rules (issue 25 item 1; spec 3 §3 "Loyalty", §4 "Loyalty progress", §9): the derived bar fields, the
// level reached by points and orders, progress capped at 100 (100 at level6, 999999 as the default next level), and
// the points an amount in US cents earns.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_NEXT_LEVEL_POINTS,
  deriveLevels,
  levelReached,
  pointsForUsdCents,
  progressOf,
  tierOf,
  type LoyaltyLevelConfig,
} from "../../app/common/rewards/levels";
import { CONFIG_DEFAULTS } from "../../server/config/definitions";

const level = (identity: LoyaltyLevelConfig["identity"], points: number, orders: number, tier: LoyaltyLevelConfig["tier"] = "welcome") => ({
  identity,
  name: identity,
  tier,
  minimumPointsNeeded: points,
  minimumOrdersNeeded: orders,
  promoCodes: [],
  educational: [],
});

const levels = deriveLevels([
  level("level2", 1000, 2, "premier"),
  level("level0", 0, 0),
  level("level1", 200, 1),
  level("level6", 20000, 12, "elite"),
]);

describe("loyalty levels", () => {
  it("sorts the levels and derives maximumOrders, range and percentageWidth", () => {
    expect(levels.map((l) => l.identity)).toEqual(["level0", "level1", "level2", "level6"]);
    expect(levels.map((l) => l.maximumOrders)).toEqual([0, 1, 11, null]);
    expect(levels.map((l) => l.range)).toEqual([200, 800, 19000, 0]);
    expect(levels.map((l) => l.percentageWidth)).toEqual([25, 25, 25, 25]);
    const three = deriveLevels([level("level0", 0, 0), level("level1", 1, 1), level("level2", 2, 2)]);
    expect(three.reduce((s, l) => s + l.percentageWidth, 0)).toBeCloseTo(100, 6);
  });

  it("reaches the highest level whose points and orders are both met", () => {
    expect(levelReached(levels, 0, 0)?.identity).toBe("level0");
    expect(levelReached(levels, 199, 5)?.identity).toBe("level0");
    expect(levelReached(levels, 200, 0)?.identity).toBe("level0");
    expect(levelReached(levels, 200, 1)?.identity).toBe("level1");
    expect(levelReached(levels, 5000, 1)?.identity).toBe("level1");
    expect(levelReached(levels, 5000, 2)?.identity).toBe("level2");
    expect(levelReached(levels, 20000, 12)?.identity).toBe("level6");
  });

  it("computes progress toward the next level, capped at 100, 100 at level6", () => {
    expect(progressOf(levels, "level0", 0)).toMatchObject({ current: "level0", next: "level1", nextLevelPoints: 200, percent: 0 });
    expect(progressOf(levels, "level0", 100).percent).toBe(50);
    expect(progressOf(levels, "level0", 199).percent).toBe(99);
    // Enough points but not the orders: still capped at 100.
    expect(progressOf(levels, "level1", 5000)).toMatchObject({ percent: 100, pointsToNextLevel: 0 });
    expect(progressOf(levels, "level1", 600)).toMatchObject({ percent: 50, pointsToNextLevel: 400 });
    expect(progressOf(levels, "level6", 20001)).toMatchObject({ current: "level6", next: null, percent: 100 });
    // An unknown level counts as the first.
    expect(progressOf(levels, "nonsense", 100).current).toBe("level0");
  });

  it("uses 999999 as the next level's points when there is none", () => {
    const two = deriveLevels([level("level0", 0, 0), level("level1", 100, 0)]);
    expect(progressOf(two, "level1", 150)).toMatchObject({ next: null, nextLevelPoints: DEFAULT_NEXT_LEVEL_POINTS, percent: 100 });
    expect(DEFAULT_NEXT_LEVEL_POINTS).toBe(999999);
  });

  it("earns whole points per US dollar, rounded down", () => {
    expect(pointsForUsdCents(29999, 1)).toBe(299);
    expect(pointsForUsdCents(30000, 2)).toBe(600);
    expect(pointsForUsdCents(150, 1.5)).toBe(2);
    expect(pointsForUsdCents(0, 1)).toBe(0);
    expect(pointsForUsdCents(-500, 1)).toBe(0);
    expect(pointsForUsdCents(1000, 0)).toBe(0);
  });

  it("maps levels to the three tiers, and the seeded levels are level0…level6 with growing thresholds", () => {
    expect(tierOf(levels, "level2")).toBe("premier");
    expect(tierOf(levels, "nonsense")).toBe("welcome");
    const seeded = deriveLevels(CONFIG_DEFAULTS.loyaltyLevels.value);
    expect(seeded.map((l) => l.identity)).toEqual(["level0", "level1", "level2", "level3", "level4", "level5", "level6"]);
    expect(new Set(seeded.map((l) => l.tier))).toEqual(new Set(["welcome", "premier", "elite"]));
    for (let i = 1; i < seeded.length; i++) expect(seeded[i].minimumOrdersNeeded).toBeGreaterThanOrEqual(seeded[i - 1].minimumOrdersNeeded);
  });
});
