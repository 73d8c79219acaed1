// What the rewards pages and API read (issue 25 items 1–2, spec 3 §3 "Loyalty", "Promo code benefit", §7): the
// levels, the user's level and progress, the promo codes they earned (and the highlighted public campaign codes),
// their educational benefits, the history 10 a page, and whether an order's points are in. The signed-in user's own
// only; another user's order is not found.
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { USD, convertMinor, formatMoney, type CurrencyFormat } from "#common/money";
import { REWARD_HISTORY_PAGE_SIZE, progressOf, type LoyaltyLevel, type LoyaltyProgress } from "#common/rewards/levels";
import type { Scope } from "../scope";
import type { DB } from "../db";
import { latestExchangeRate } from "../kernel/reference";
import { loyaltySettingsForPage } from "./settings";
import { localizationTimeZone } from "../config";
import { userRowOf } from "../accounts/user-row";

/** The clock the user's dates are shown in (their localisation's). */
export async function rewardsTimeZone(scope: Scope): Promise<string> {
  return localizationTimeZone((await scope.app.config.snapshot()).localizations, scope.localization);
}

export interface PromoBenefit {
  code: string;
  /** The staff-given name, or null: the page names it from `source` (a level's benefit). */
  name: string | null;
  /** 'level:<identity>', 'campaign', 'referral-welcome'… */
  source: string | null;
  discount: {
    kind: "percent" | "amount";
    /** Percent (kind percent), or minor units of the user's currency (kind amount). */
    amount: number;
    displayableAmount: string;
  };
  endDate: string | null;
  used: boolean;
  highlighted: boolean;
}

export interface EducationalBenefitView {
  key: string;
  level: string;
  /** One of our own pages, after the language prefix. */
  path: string;
}

export interface Loyalty {
  hasRewards: boolean;
  totalRewardPoints: number;
  loyaltyLevel: string;
  loyaltyLevels: LoyaltyLevel[];
  progress: LoyaltyProgress;
  earnedPromotionalCodeBenefits: PromoBenefit[];
  earnedEducationalBenefits: EducationalBenefitView[];
  /** Public campaign codes staff highlighted, current and not used up. */
  highlightedPromotions: PromoBenefit[];
}

interface UserRewards {
  id: number;
  reward_points: number;
  loyalty_level: string;
  has_rewards: boolean;
  currency: CurrencyFormat & { rate: string };
}

async function userRewards(scope: Scope): Promise<UserRewards | null> {
  if (scope.userId === null) return null;
  const u = await scope.app.db
    .selectFrom("users as u")
    .innerJoin("currencies as c", "c.iso_code", "u.currency_iso")
    .select(["u.id", "u.reward_points", "u.loyalty_level", "u.has_rewards", "u.currency_iso", "c.sign", "c.num_decimals"])
    .where("u.id", "=", scope.userId)
    .executeTakeFirst();
  if (!u) return null;
  const iso = u.currency_iso.trim();
  const rate = (await latestExchangeRate(scope.app.db, iso)) ?? null;
  // Without a rate the user's amounts are shown in US dollars.
  const currency = rate ? { isoCode: iso, sign: u.sign, numDecimals: u.num_decimals, rate } : { ...USD };
  return { id: u.id, reward_points: u.reward_points, loyalty_level: u.loyalty_level, has_rewards: u.has_rewards, currency };
}

/** Whether the signed-in user has rewards (the pages' guard). */
export async function hasRewards(scope: Scope): Promise<boolean> {
  if (scope.userId === null) return false;
  const u = await scope.app.db.selectFrom("users").select("has_rewards").where("id", "=", scope.userId).executeTakeFirst();
  return Boolean(u?.has_rewards);
}

type PromoRow = {
  code: string;
  name: string | null;
  source: string | null;
  percent_off: string | null;
  amount_off_cents: number | null;
  ends_at: Date | null;
  max_uses: number | null;
  times_used: number;
  highlighted: boolean;
};

function benefitOf(p: PromoRow, currency: UserRewards["currency"]): PromoBenefit {
  const percent = p.percent_off === null ? null : Number(p.percent_off);
  const amount = percent === null ? convertMinor(p.amount_off_cents ?? 0, USD, currency) : percent;
  return {
    code: p.code,
    name: p.name,
    source: p.source,
    discount: {
      kind: percent === null ? "amount" : "percent",
      amount,
      displayableAmount: percent === null ? formatMoney(amount, currency) : `${percent}%`,
    },
    endDate: p.ends_at ? new Date(p.ends_at).toISOString() : null,
    used: p.max_uses !== null && p.times_used >= p.max_uses,
    highlighted: p.highlighted,
  };
}

const PROMO_COLUMNS = [
  "p.code",
  "p.name",
  "p.source",
  sql<string | null>`p.percent_off::text`.as("percent_off"),
  "p.amount_off_cents",
  "p.ends_at",
  "p.max_uses",
  "p.times_used",
  "p.highlighted",
] as const;

/** The user's own codes that have not ended (used ones too: the pages hide them unless asked), newest first. */
async function ownCodes(db: DB, userId: number, now: Date): Promise<PromoRow[]> {
  return db
    .selectFrom("promo_codes as p")
    .select(PROMO_COLUMNS)
    .where("p.user_id", "=", userId)
    .where("p.active", "=", true)
    .where((eb) => eb.or([eb("p.ends_at", "is", null), eb("p.ends_at", ">", now)]))
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .execute();
}

/** Public campaign codes that are highlighted (the code or its campaign), current and not used up. */
async function highlightedCodes(db: DB, now: Date): Promise<PromoRow[]> {
  return db
    .selectFrom("promo_codes as p")
    .innerJoin("promo_campaigns as c", "c.id", "p.campaign_id")
    .select(PROMO_COLUMNS)
    .select("c.name as campaign_name")
    .where("p.user_id", "is", null)
    .where("p.active", "=", true)
    .where((eb) => eb.or([eb("p.highlighted", "=", true), eb("c.highlighted", "=", true)]))
    .where((eb) => eb.or([eb("p.starts_at", "is", null), eb("p.starts_at", "<=", now)]))
    .where((eb) => eb.or([eb("p.ends_at", "is", null), eb("p.ends_at", ">", now)]))
    .where((eb) => eb.or([eb("p.max_uses", "is", null), eb("p.times_used", "<", eb.ref("p.max_uses"))]))
    .orderBy("p.created_at", "desc")
    .limit(20)
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, name: r.name ?? r.campaign_name, highlighted: true })));
}

/** The configured levels (GET /api/loyalty/levels/load). */
export async function loyaltyLevels(scope: Scope): Promise<LoyaltyLevel[]> {
  return (await loyaltySettingsForPage(scope.app)).levels;
}

/** The user's loyalty (GET /api/loyalty/load, the rewards page). Errors: `unauthorized`. */
export async function loyaltyOf(scope: Scope, now = new Date()): Promise<Result<Loyalty>> {
  const u = await userRewards(scope);
  if (!u) return fail("unauthorized");
  const [{ levels }, own, highlighted, grants] = await Promise.all([
    loyaltySettingsForPage(scope.app),
    ownCodes(scope.app.db, u.id, now),
    highlightedCodes(scope.app.db, now),
    scope.app.db.selectFrom("loyalty_level_grants").select("level").where("user_id", "=", u.id).execute(),
  ]);
  const granted = new Set(grants.map((g) => g.level));
  return ok({
    hasRewards: u.has_rewards,
    totalRewardPoints: u.reward_points,
    loyaltyLevel: u.loyalty_level,
    loyaltyLevels: levels,
    progress: progressOf(levels, u.loyalty_level, u.reward_points),
    earnedPromotionalCodeBenefits: own.map((p) => benefitOf(p, u.currency)),
    earnedEducationalBenefits: levels
      .filter((l) => granted.has(l.identity))
      .flatMap((l) => l.educational.map((e) => ({ key: e.key, level: l.identity, path: e.path }))),
    highlightedPromotions: highlighted.map((p) => benefitOf(p, u.currency)),
  });
}

export interface RewardHistoryEntry {
  /** The last part of a translation key (rewards:history.names.<name>). */
  name: string;
  points: number;
  date: string;
  pointsToDate: number;
  /** The order it is about (its number), when there is one. */
  externalId: string | null;
}

export interface RewardHistoryPage {
  rewardHistory: RewardHistoryEntry[];
  pagination: { page: number; pageSize: number; total: number; pages: number };
}

/** The user's reward history, newest first, 10 a page (GET /api/reward/history/load, the rewards page). */
export async function rewardHistoryOf(scope: Scope, page = 1): Promise<Result<RewardHistoryPage>> {
  if (scope.userId === null) return fail("unauthorized");
  const db = scope.app.db;
  const count = await db
    .selectFrom("reward_history")
    .select(sql<string>`count(*)`.as("n"))
    .where("user_id", "=", scope.userId)
    .executeTakeFirst();
  const total = Number(count?.n ?? 0);
  const pages = Math.max(1, Math.ceil(total / REWARD_HISTORY_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await db
    .selectFrom("reward_history as h")
    .leftJoin("orders as o", "o.id", "h.order_id")
    .select(["h.name", "h.points", "h.points_to_date", "h.created_at", "o.external_id"])
    .where("h.user_id", "=", scope.userId)
    .orderBy("h.id", "desc")
    .limit(REWARD_HISTORY_PAGE_SIZE)
    .offset((current - 1) * REWARD_HISTORY_PAGE_SIZE)
    .execute();
  return ok({
    rewardHistory: rows.map((r) => ({
      name: r.name,
      points: r.points,
      date: new Date(r.created_at).toISOString(),
      pointsToDate: r.points_to_date,
      externalId: r.external_id ?? null,
    })),
    pagination: { page: current, pageSize: REWARD_HISTORY_PAGE_SIZE, total, pages },
  });
}

export interface OrderRewardPoints {
  totalRewardPoints: number;
  /** Whether the order's points are in (true as well when the user has no rewards: nothing to wait for). */
  updated: boolean;
  /** The points the order holds now. */
  orderPoints: number;
  hasRewards: boolean;
}

/** The thank-you page's wait (GET /api/users/{id}/reward-points?externalId=). Errors: `unauthorized`, `not-found`. */
export async function orderRewardPoints(scope: Scope, externalId: string): Promise<Result<OrderRewardPoints>> {
  if (scope.userId === null) return fail("unauthorized");
  const db = scope.app.db;
  const [user, order] = await Promise.all([
    db.selectFrom("users").select(["reward_points", "has_rewards"]).where("id", "=", scope.userId).executeTakeFirst(),
    db.selectFrom("orders").select(["id", "user_id"]).where("external_id", "=", externalId).executeTakeFirst(),
  ]);
  if (!user) return fail("unauthorized");
  if (!order || order.user_id !== scope.userId) return fail("not-found");
  const rows = await db.selectFrom("reward_history").select(["name", "points"]).where("order_id", "=", order.id).execute();
  const awarded = rows.some((r) => r.name === "order-paid");
  return ok({
    totalRewardPoints: user.reward_points,
    updated: !user.has_rewards || awarded,
    orderPoints: rows.filter((r) => r.name === "order-paid" || r.name === "order-reversed").reduce((s, r) => s + r.points, 0),
    hasRewards: user.has_rewards,
  });
}

export interface RewardsWidgetView {
  totalRewardPoints: number;
  loyaltyLevel: string;
  progress: LoyaltyProgress;
}

/** The dashboard's rewards widget (spec 2 §2 "Widget row"): null unless the user has rewards. */
export async function rewardsWidgetOf(scope: Scope): Promise<RewardsWidgetView | null> {
  if (scope.userId === null) return null;
  const u = await userRowOf(scope.app, scope.userId);
  if (!u?.has_rewards) return null;
  const { levels } = await loyaltySettingsForPage(scope.app);
  return {
    totalRewardPoints: u.reward_points,
    loyaltyLevel: u.loyalty_level,
    progress: progressOf(levels, u.loyalty_level, u.reward_points),
  };
}
