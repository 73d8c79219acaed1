// The referrals JSON API (spec 3 §7 "Rewards, referrals, promotions, testimonials"): the signed-in user's own
// referral facts. GET only; a visitor gets 401 from the router.
import { endpoint, type EndpointTable } from "../http/api/endpoint";
import { referralPage, totalEarnedCredits } from "./index";

export const referralsApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/referral-rewards/load",
    auth: "user",
    summary:
      "The caller's referral facts: referralCode, referralLink, numberOfReferralsSent, totalEarnedCredits (minor units of currency), offerAmount and the referrals (names masked, status).",
    handler: ({ scope }) => referralPage(scope),
  }),
  endpoint({
    method: "GET",
    path: "/api/referral-rewards/total-credits",
    auth: "user",
    summary: "The caller's referral earnings: totalEarnedCredits in minor units of the caller's currency, and that currency.",
    handler: ({ scope }) => totalEarnedCredits(scope),
  }),
];
