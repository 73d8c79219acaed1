// The order form's public face (spec 1 §4–§9): other areas and the pages import only this module.
// One module per concern, with no import cycle:
//   store (rows, owners) ← steps/flow (which steps, pure) ← progress (step context, moving on)
//   price, files ← steps/* (one per step) ← rework ← bundles, promo, referrals, currency, quote, view
// The JSON API table (./api) is registered in server/http/api/tables.ts, not exported here.
export { PROJECT_TITLE_MAX, WORD_COUNT_MAX } from "#common/order-form/constants";
export * from "./store";
export * from "./types";
export * from "./steps/flow";
export * from "./progress";
export * from "./price";
export * from "./files";
export * from "./steps/get-started";
export * from "./steps/services";
export * from "./steps/additional";
export * from "./steps/details";
export * from "./steps/duplicate";
export * from "./bundles";
export * from "./promo";
export * from "./referrals";
export * from "./currency";
export * from "./drafts";
export * from "./choices";
export * from "./rework";
export * from "./quote";
export * from "./summary";
export * from "./layout";
export { orderFormView } from "./view";
