// The composition root of events between areas (ADR 056): the higher areas register their handlers with the
// events of the lower ones, and provide the ports the lower ones call (ADR 059), once per process, before any
// request or job runs (createAppContext calls it).
import { registerOrderBillingHandlers } from "./orders/billing-handlers";
import { provideReworkableOrders } from "./orders/reworkable";
import { registerPrepayBillingHandlers } from "./prepay/billing-handlers";
import { registerDigitalBillingHandlers } from "./digital/billing-handlers";
// Issue 25 (helper R): reward points follow orders' payments, refunds and cancellations.
import { registerRewardsHandlers } from "./rewards";
import { registerReferralHandlers } from "./referrals";

// Once per process, whichever copy of this module runs first (the Remix build bundles one; kernel/events.ts).
const REGISTERED = Symbol.for("portal.event-handlers.registered");

export function registerEventHandlers(): void {
  const g = globalThis as { [REGISTERED]?: boolean };
  if (g[REGISTERED]) return;
  g[REGISTERED] = true;
  registerOrderBillingHandlers();
  registerPrepayBillingHandlers();
  registerDigitalBillingHandlers();
  // Issue 25 (helper R): after the orders' handlers, so an order is marked paid before its points are counted.
  registerRewardsHandlers();
  registerReferralHandlers();
  provideReworkableOrders();
}
