// Loyalty levels and progress (issue 25 item 1; spec 3 §3 "Loyalty", §4 "Loyalty progress", §9). Pure rules shared by
// the rewards area (which level a user has reached, the points an order earns) and the pages (the level bar): the
// levels come from configuration (server/config/definitions.ts `loyaltyLevels`), these functions only read them.

export const LEVEL_IDS = ["level0", "level1", "level2", "level3", "level4", "level5", "level6"] as const;
export type LevelId = (typeof LEVEL_IDS)[number];
/** The top level: its progress is always 100 (spec 3 §4). */
export const TOP_LEVEL: LevelId = "level6";
/** The next level's points when there is none (spec 3 §4). */
export const DEFAULT_NEXT_LEVEL_POINTS = 999999;
/** Reward history rows per page (spec 3 §9). */
export const REWARD_HISTORY_PAGE_SIZE = 10;
export const TIERS = ["welcome", "premier", "elite"] as const;
export type Tier = (typeof TIERS)[number];

/** A promo-code benefit of a level: a percentage or a USD amount (cents), valid for `validDays` from the grant. */
export interface PromoBenefitTemplate {
  /** Stable name of the benefit (the translation key's last part: rewards:benefits.<key>). */
  key: string;
  percentOff?: number | null;
  amountOffUsdCents?: number | null;
  validDays: number;
}

/** An educational benefit: a translation key and one of our own pages (a path after the language prefix). */
export interface EducationalBenefit {
  key: string;
  path: string;
}

export interface LoyaltyLevelConfig {
  identity: LevelId;
  /** The level's name: a translation key's last part (rewards:levels.<name>). */
  name: string;
  tier: Tier;
  minimumPointsNeeded: number;
  minimumOrdersNeeded: number;
  promoCodes: PromoBenefitTemplate[];
  educational: EducationalBenefit[];
}

/** A level as the level bar shows it: with the derived maximumOrders, range and percentageWidth (spec 3 §3). */
export interface LoyaltyLevel extends LoyaltyLevelConfig {
  /** The most orders one can have at this level (the next level's minimum - 1); null at the top. */
  maximumOrders: number | null;
  /** Points from this level's minimum to the next one's (the top level: 0). */
  range: number;
  /** The level's share of the bar, in percent (equal segments; the last one takes what rounding left). */
  percentageWidth: number;
}

/** The configured levels in order of their minimum points, with the derived bar fields. */
export function deriveLevels(config: readonly LoyaltyLevelConfig[]): LoyaltyLevel[] {
  const sorted = [...config].sort((a, b) => a.minimumPointsNeeded - b.minimumPointsNeeded || a.identity.localeCompare(b.identity));
  const n = sorted.length;
  const share = n ? Math.floor(10000 / n) / 100 : 0;
  return sorted.map((l, i) => {
    const next = sorted[i + 1];
    return {
      ...l,
      maximumOrders: next ? Math.max(l.minimumOrdersNeeded, next.minimumOrdersNeeded - 1) : null,
      range: next ? next.minimumPointsNeeded - l.minimumPointsNeeded : 0,
      percentageWidth: i === n - 1 ? Math.round((100 - share * (n - 1)) * 100) / 100 : share,
    };
  });
}

/** The highest level whose points and orders are both reached (level0 when none is). */
export function levelReached(levels: readonly LoyaltyLevel[], points: number, orders: number): LoyaltyLevel | null {
  let reached: LoyaltyLevel | null = null;
  for (const l of levels) if (points >= l.minimumPointsNeeded && orders >= l.minimumOrdersNeeded) reached = l;
  return reached ?? levels[0] ?? null;
}

export interface LoyaltyProgress {
  current: LevelId;
  next: LevelId | null;
  /** The next level's minimum points (999999 without one). */
  nextLevelPoints: number;
  pointsToNextLevel: number;
  /** Whole percent toward the next level, 0–100; 100 at the top level. */
  percent: number;
}

/** Progress toward the next level (spec 3 §4): capped at 100, 100 at level6, 999999 as the default next level's points. */
export function progressOf(levels: readonly LoyaltyLevel[], currentId: string, points: number): LoyaltyProgress {
  const i = Math.max(
    0,
    levels.findIndex((l) => l.identity === currentId),
  );
  const current = levels[i];
  const next = levels[i + 1] ?? null;
  const nextLevelPoints = next?.minimumPointsNeeded ?? DEFAULT_NEXT_LEVEL_POINTS;
  const base = current?.minimumPointsNeeded ?? 0;
  const top = !current || current.identity === TOP_LEVEL || !next;
  const span = nextLevelPoints - base;
  const raw = top ? 100 : span > 0 ? Math.floor(((points - base) * 100) / span) : 100;
  return {
    current: (current?.identity ?? "level0") as LevelId,
    next: next && !top ? next.identity : null,
    nextLevelPoints,
    pointsToNextLevel: top ? 0 : Math.max(0, nextLevelPoints - points),
    percent: Math.min(100, Math.max(0, raw)),
  };
}

/** Points earned for an amount paid, given in US cents: whole points per whole dollar × the rate, rounded down. */
export function pointsForUsdCents(usdCents: number, pointsPerUsd: number): number {
  if (!Number.isSafeInteger(usdCents) || usdCents <= 0 || !(pointsPerUsd > 0)) return 0;
  return Math.floor((usdCents * pointsPerUsd) / 100);
}

/** The tier a level belongs to (the tier boxes of the rewards page). */
export function tierOf(levels: readonly LoyaltyLevel[], id: string): Tier {
  return levels.find((l) => l.identity === id)?.tier ?? "welcome";
}
