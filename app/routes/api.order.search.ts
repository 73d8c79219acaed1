import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiUser, json } from "#app/lib/api.server";
import { searchOrders } from "#server/orders/read";

// GET /api/order/search?xid=&orderTitle=&from=&to=&page= : the signed-in user's orders.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  const q = new URL(request.url).searchParams;
  return json(
    await searchOrders(context.app.db, session.user.id, {
      xid: q.get("xid") ?? undefined,
      orderTitle: q.get("orderTitle") ?? undefined,
      from: q.get("from") ?? undefined,
      to: q.get("to") ?? undefined,
      page: Number(q.get("page") ?? 1),
    }),
  );
}
