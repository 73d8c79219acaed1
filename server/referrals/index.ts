// The referrals area's public face (issue 25 item 3: referral links, the colleague's welcome code, the referrer's
// credits and points, the QR flyer). Named exports only.
export { registerReferralHandlers } from "./handlers";
export { creditReferral, type CreditOutcome } from "./credit";
export { recordReferral, newWelcomeCode, referralAmountUsdCents, WELCOME_CODE_PREFIX } from "./register";
export { referralPage, totalEarnedCredits, qrSvg, welcomeCodeOf, type ReferralPage, type ReferralRow, type Currency } from "./page";
export { referralFlyerPdf } from "./flyer";
export { canonicalEmail, maskedName, normalizedAddress, samePersonReason } from "./rules";
