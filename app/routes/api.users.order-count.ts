import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiUser, json } from "#app/lib/api.server";
import { orderCount } from "#server/accounts/account";

// GET /api/users/{id}/order-count -> { numberOfOrders }. {id} is the user's identity; only one's own.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  if (params.id !== session.user.identity && params.id !== String(session.user.id)) return apiError("forbidden", 403);
  return json({ numberOfOrders: await orderCount(context.app, session.user.id) });
}
