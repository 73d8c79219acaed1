// The loyalty settings (issue 25 item 1, ADR 075): the configured levels (config `loyaltyLevels`) and the points a US
// dollar earns (`rewardPointsPerUsd`). Read from the configuration through the caller's handle, so the
// in-transaction handlers of billing's and orders' events (which get a transaction, not the AppContext) and the pages
// read the same values; a value that is not stored, or does not have the expected shape, is the seeded default.
import type { DB } from "../db";
import type { AppContext } from "../context";
import { applyEnvOverrides, loadSnapshotFromDb } from "../config";
import { CONFIG_DEFAULTS } from "../config/definitions";
import { LEVEL_IDS, TIERS, deriveLevels, type LoyaltyLevel, type LoyaltyLevelConfig } from "#common/rewards/levels";

export interface LoyaltySettings {
  levels: LoyaltyLevel[];
  pointsPerUsd: number;
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function validLevels(v: unknown): LoyaltyLevelConfig[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  for (const l of v as LoyaltyLevelConfig[]) {
    if (!l || typeof l !== "object") return null;
    if (!(LEVEL_IDS as readonly string[]).includes(l.identity) || typeof l.name !== "string") return null;
    if (!(TIERS as readonly string[]).includes(l.tier)) return null;
    if (!isInt(l.minimumPointsNeeded) || !isInt(l.minimumOrdersNeeded)) return null;
    if (!Array.isArray(l.promoCodes) || !Array.isArray(l.educational)) return null;
    for (const p of l.promoCodes) {
      if (typeof p?.key !== "string" || !isInt(p.validDays) || p.validDays < 1) return null;
      const percent = typeof p.percentOff === "number" && p.percentOff > 0 && p.percentOff <= 100;
      const amount = isInt(p.amountOffUsdCents) && p.amountOffUsdCents > 0;
      if (percent === amount) return null;
    }
    for (const e of l.educational)
      if (typeof e?.key !== "string" || typeof e.path !== "string" || /^[a-z]+:|^\/\//i.test(e.path)) return null;
  }
  return v as LoyaltyLevelConfig[];
}

/**
 * The loyalty settings as configured (stored values with the environment's CONFIG_* overrides, read the way
 * ConfigService and the referral settings read them), through `db` (a transaction handle or the pool); a value
 * without the expected shape is the default.
 */
export async function loyaltySettings(db: DB): Promise<LoyaltySettings> {
  return loyaltySettingsOf(applyEnvOverrides(await loadSnapshotFromDb(db), process.env).config);
}

/**
 * The loyalty settings for a page: from the process's configuration snapshot (ConfigService, cached), not three
 * queries of the stored configuration per request (ADR 081). Handlers in a transaction use loyaltySettings(trx).
 */
export async function loyaltySettingsForPage(app: Pick<AppContext, "config">): Promise<LoyaltySettings> {
  return loyaltySettingsOf((await app.config.snapshot()).config);
}

function loyaltySettingsOf(config: Record<string, unknown>): LoyaltySettings {
  const levels = validLevels(config.loyaltyLevels) ?? CONFIG_DEFAULTS.loyaltyLevels.value;
  const rate: unknown = config.rewardPointsPerUsd;
  const pointsPerUsd = typeof rate === "number" && rate >= 0 && rate <= 1000 ? rate : CONFIG_DEFAULTS.rewardPointsPerUsd.value;
  return { levels: deriveLevels(levels), pointsPerUsd };
}
