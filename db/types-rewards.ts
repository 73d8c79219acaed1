// Rewards, promotions, referrals, testimonials, preferred groups (see db/migrations/0040_rewards.ts, issue 25).
// The columns the migration adds to users, promo_codes and preferred_groups are in their tables' types.
import type { ColumnType, Generated } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface PromoCampaignTable {
  id: Generated<number>;
  name: string;
  description: Nullable<string>;
  highlighted: Generated<boolean>;
  starts_at: Nullable<Date>;
  ends_at: Nullable<Date>;
  created_by: Nullable<number>;
  created_at: DefaultTimestamp;
}

export interface RewardHistoryTable {
  id: Generated<string>;
  user_id: number;
  /** The last part of a translation key: 'order-paid', 'order-reversed', 'level-reached', 'staff-adjustment'… */
  name: string;
  /** Signed: a reversal is negative. */
  points: number;
  points_to_date: number;
  order_id: Nullable<number>;
  /** Each award or reversal happens once: 'order-paid:<orderId>'… */
  source_key: string;
  created_at: DefaultTimestamp;
}

export interface LoyaltyLevelGrantTable {
  user_id: number;
  level: string;
  granted_at: DefaultTimestamp;
}

export type ReferralStatus = "pending" | "credited" | "refused";

export interface ReferralTable {
  id: Generated<number>;
  referrer_user_id: number;
  referred_user_id: number;
  status: ColumnType<ReferralStatus, ReferralStatus | undefined, ReferralStatus>;
  refused_reason: Nullable<string>;
  order_id: Nullable<number>;
  credit_amount: Nullable<number>;
  credit_currency: Nullable<string>;
  credited_at: Nullable<Date>;
  created_at: DefaultTimestamp;
}

export type TestimonialStatus = "submitted" | "approved" | "rejected";
export type TestimonialPhotoType = "image/jpeg" | "image/png" | "image/webp";

export interface TestimonialTable {
  id: Generated<string>;
  user_id: number;
  text: string;
  photo_path: Nullable<string>;
  photo_type: Nullable<TestimonialPhotoType>;
  photo_bytes: Nullable<number>;
  status: ColumnType<TestimonialStatus, TestimonialStatus | undefined, TestimonialStatus>;
  reviewed_by: Nullable<number>;
  reviewed_at: Nullable<Date>;
  created_at: DefaultTimestamp;
}

export interface RewardTables {
  promo_campaigns: PromoCampaignTable;
  reward_history: RewardHistoryTable;
  loyalty_level_grants: LoyaltyLevelGrantTable;
  referrals: ReferralTable;
  testimonials: TestimonialTable;
}
