// The referral settings (issue 25 item 3), read in the caller's transaction: event handlers get only a transaction
// handle, so they read the stored configuration with the environment's overrides the way ConfigService does.
import type { DB } from "../db";
import { applyEnvOverrides, loadSnapshotFromDb } from "../config";

export interface ReferralSettings {
  /** What each side gets, in USD (major units; default 40). */
  amount: unknown;
  /** Reward points the referrer earns per credited referral. */
  points: number;
  /** Days a referral credit may be spent. */
  creditDays: number;
}

export async function referralSettings(db: DB): Promise<ReferralSettings> {
  const { config } = applyEnvOverrides(await loadSnapshotFromDb(db), process.env);
  const whole = (v: unknown, fallback: number) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : fallback);
  return {
    amount: config.referralAmount,
    points: whole(config.referralPoints, 100),
    creditDays: whole(config.referralCreditDays, 365) || 365,
  };
}
