// The home area, the public face (spec 3 §2 "Home area", issue 25 items 6–7, ADR 077). The JSON API table (./api)
// is registered in server/api-tables.ts, not exported here.
export { homeOf, recentDocuments, HOME_RECENT_DOCUMENTS, HOME_RECENT_ORDERS, type HomeDocument, type HomeView } from "./home";
export { hideCheckSpamMessage } from "./spam-banner";
export { rubriqExternalTarget, rubriqPlanPurchase } from "./rubriq";
