// The orders API (spec 2 §7): the signed-in user's orders, and the duplicate-title check of the details step.
import { ok } from "#common/result";
import { duplicateQuery, orderSearchQuery } from "#common/order-form/schemas";
import { endpoint, type EndpointTable } from "../http/api/endpoint";
import { findDuplicate } from "../order-form";
import { flagContextOf, searchOrders } from "./read";

/** `?page=` as a page number (anything else is the first page). */
function pageOf(raw: string | undefined): number {
  const page = Number(raw ?? 1);
  return Number.isFinite(page) ? page : 1;
}

export const ordersApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/order/search",
    auth: "user",
    query: orderSearchQuery,
    summary: "The user's orders, 30 a page: ?xid=&orderTitle=&from=&to=&page= (spec 2 §7).",
    async handler({ scope, query }) {
      const found = await searchOrders(
        scope.app.db,
        scope.userId!,
        {
          xid: query.xid,
          orderTitle: query.orderTitle,
          from: query.from,
          to: query.to,
          page: pageOf(query.page),
        },
        await flagContextOf(scope),
      );
      // The internal row id stays on the server.
      return ok({ ...found, orders: found.orders.map(({ id: _id, ...order }) => order) });
    },
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
