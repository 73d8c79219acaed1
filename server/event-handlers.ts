// The composition root of events between areas (ADR 056): the higher areas register their handlers with the
// events of the lower ones, once per process, before any request or job runs (createAppContext calls it).
import { registerOrderBillingHandlers } from "./orders/billing-handlers";
import { registerPrepayBillingHandlers } from "./prepay/billing-handlers";

let registered = false;

export function registerEventHandlers(): void {
  if (registered) return;
  registered = true;
  registerOrderBillingHandlers();
  registerPrepayBillingHandlers();
}
