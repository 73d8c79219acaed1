// The referrals area's handlers of lower areas' events (issue 25 item 3), registered once at start-up by
// server/event-handlers.ts: a registration through a referral link, and the two halves of "first order paid and
// completed" (billing's invoiceSettled, orders' orderTransitioned), each in its emitter's transaction.
import { researcherRegistered } from "../accounts/events";
import { invoiceSettled } from "../billing";
import { orderTransitioned } from "../orders/events";
import { onInvoiceSettledForReferral, onOrderTransitionedForReferral } from "./credit";
import { recordReferral } from "./register";
import { referralSettings } from "./settings";

const onResearcherRegistered: Parameters<typeof researcherRegistered.on>[0] = async (trx, e) => {
  if (!e.referralCode) return;
  await recordReferral(trx, e, (await referralSettings(trx)).amount);
};

export function registerReferralHandlers(): void {
  researcherRegistered.on(onResearcherRegistered);
  invoiceSettled.on(onInvoiceSettledForReferral);
  orderTransitioned.on(onOrderTransitionedForReferral);
}
