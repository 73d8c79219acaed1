// The rewards API (issue 25 item 1, spec 3 §7 "Rewards, referrals, promotions, testimonials"): the levels, the user's
// loyalty (level, progress, earned promo-code and educational benefits), the reward history 10 a page, and the
// thank-you page's wait for an order's points. The signed-in user's own only: another user's {id} is a 403, another
// user's order a 404. Names are translated into the request's language (the key is beside each).
import { fail, ok } from "#common/result";
import { rewardHistoryQuery, rewardPointsQuery } from "#common/rewards/schemas";
import type { LoyaltyLevel } from "#common/rewards/levels";
import { endpoint, type EndpointTable, type HandlerAnswer, type HandlerInput } from "../http/api/endpoint";
import { fixedT } from "../i18n";
import type { Scope } from "../scope";
import { loyaltyLevels, loyaltyOf, orderRewardPoints, rewardHistoryOf, type PromoBenefit } from "./load";

/** A call on one's own user only: `{id}` (identity or numeric id) must be the signed-in user's, else 403. */
function ownUser<Q>(handler: (input: HandlerInput<undefined, Q>) => Promise<HandlerAnswer>) {
  return (input: HandlerInput<undefined, Q>) => {
    const user = input.scope.session?.user;
    return user && (input.params.id === user.identity || input.params.id === String(user.id)) ? handler(input) : fail("forbidden");
  };
}

const levelView = (scope: Scope, l: LoyaltyLevel) => {
  const t = fixedT(scope.lang, "rewards");
  return {
    identity: l.identity,
    name: t(`levels.${l.name}`),
    tier: l.tier,
    minimumPointsNeeded: l.minimumPointsNeeded,
    minimumOrdersNeeded: l.minimumOrdersNeeded,
    maximumOrders: l.maximumOrders,
    range: l.range,
    percentageWidth: l.percentageWidth,
  };
};

/** A promo benefit's name: staff's, or the level's benefit ("Level 2 reward"). */
export function benefitName(scope: Scope, p: PromoBenefit): string {
  const t = fixedT(scope.lang, "rewards");
  if (p.name) return p.name;
  const level = p.source?.startsWith("level:") ? p.source.slice(6) : null;
  return level ? t("codes.levelName", { level: t(`levels.${level}`) }) : t("codes.promotion");
}

export const rewardsApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/loyalty/levels/load",
    auth: "user",
    summary:
      "The loyalty levels (level0…level6): identity, name, tier, minimumPointsNeeded, minimumOrdersNeeded, maximumOrders, range, percentageWidth.",
    async handler({ scope }) {
      return ok({ loyaltyLevels: (await loyaltyLevels(scope)).map((l) => levelView(scope, l)) });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/loyalty/load",
    auth: "user",
    summary:
      "The user's loyalty: loyaltyLevel, loyaltyLevels, totalRewardPoints, progress, earnedPromotionalCodeBenefits {code, name, discount {amount, displayableAmount}, endDate, used, highlighted}, earnedEducationalBenefits.",
    async handler({ scope }) {
      const r = await loyaltyOf(scope);
      if (!r.ok) return r;
      const t = fixedT(scope.lang, "rewards");
      const l = r.value;
      const promo = (p: PromoBenefit) => ({ ...p, name: benefitName(scope, p) });
      return ok({
        hasRewards: l.hasRewards,
        totalRewardPoints: l.totalRewardPoints,
        loyaltyLevel: levelView(scope, l.loyaltyLevels.find((x) => x.identity === l.loyaltyLevel) ?? l.loyaltyLevels[0]),
        loyaltyLevels: l.loyaltyLevels.map((x) => levelView(scope, x)),
        progress: l.progress,
        earnedPromotionalCodeBenefits: l.earnedPromotionalCodeBenefits.map(promo),
        earnedEducationalBenefits: l.earnedEducationalBenefits.map((e) => ({
          key: e.key,
          level: e.level,
          name: t(`educational.${e.key}`),
          link: `/${scope.lang}/${e.path}`,
        })),
        highlightedPromotions: l.highlightedPromotions.map(promo),
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/reward/history/load",
    auth: "user",
    query: rewardHistoryQuery,
    summary: "The user's reward history, newest first, 10 a page (?page=): rewardHistory [{name, points, date, pointsToDate}], pagination.",
    async handler({ scope, query }) {
      const r = await rewardHistoryOf(scope, query.page ?? 1);
      if (!r.ok) return r;
      const t = fixedT(scope.lang, "rewards");
      return ok({
        rewardHistory: r.value.rewardHistory.map((h) => ({ ...h, key: h.name, name: t(`history.names.${h.name}`) })),
        pagination: r.value.pagination,
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/users/:id/reward-points",
    auth: "user",
    query: rewardPointsQuery,
    summary:
      "The thank-you page's wait (?externalId=): totalRewardPoints, updated (the order's points are in, or the user has no rewards), orderPoints. {id}: one's own identity or id; another user's is a 403, another user's order a 404.",
    handler: ownUser<{ externalId: string }>(async ({ scope, query }) => orderRewardPoints(scope, query.externalId)),
  }),
];
