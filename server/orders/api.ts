// The orders API (spec 2 §7): the signed-in user's orders, and the duplicate-title check of the details step.
import { ok } from "#common/result";
import { duplicateQuery, orderSearchQuery } from "#common/order-form/schemas";
import { endpoint, type EndpointTable } from "../http/api/endpoint";
import { findDuplicate } from "../order-form";
import { searchMyOrders } from "./dashboard";

export const ordersApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/order/search",
    auth: "user",
    query: orderSearchQuery,
    summary:
      "The user's orders, newest first, 30 a page, each with its flags and certificate: ?xid=&orderTitle=&from=&to= (MM/dd/yyyy)&page= (spec 2 §7).",
    // The dashboard's own search (server/orders/dashboard.ts): the API lists what the page shows.
    handler: ({ scope, query }) => searchMyOrders(scope, query),
  }),
  endpoint({
    method: "GET",
    path: "/api/order/duplicate",
    auth: "user",
    query: duplicateQuery,
    summary: "The user's order with the same title in the last 7 days, or null: {order}.",
    async handler({ scope, query }) {
      const order = await findDuplicate(
        // The API looks at the signed-in user's orders only.
        { ...scope, draftKey: null },
        { project_title: query.title.trim() || null },
      );
      return ok({ order });
    },
  }),
];
