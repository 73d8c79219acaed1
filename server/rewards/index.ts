// The rewards area's public face (issue 25: loyalty points and levels, promotions). Named exports only.
export { changePoints, type PointsChange, type PointsChanged } from "./points";
export { applyLevel, newRewardCode, paidOrderCount } from "./levels";
export { loyaltySettings, type LoyaltySettings } from "./settings";
export { awardOrderPoints, registerRewardsHandlers, reverseOrderPoints } from "./handlers";
export {
  hasRewards,
  loyaltyLevels,
  loyaltyOf,
  orderRewardPoints,
  rewardHistoryOf,
  rewardsTimeZone,
  rewardsWidgetOf,
  type EducationalBenefitView,
  type Loyalty,
  type OrderRewardPoints,
  type PromoBenefit,
  type RewardHistoryEntry,
  type RewardHistoryPage,
  type RewardsWidgetView,
} from "./load";
