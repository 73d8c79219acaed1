import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiUser, json } from "#app/lib/api.server";
import { findDuplicate } from "#server/order-form/service";

// GET /api/order/duplicate?title= : the user's order with the same title in the last 7 days, if any.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  const title = new URL(request.url).searchParams.get("title") ?? "";
  const order = await findDuplicate(
    {
      ctx: context.app,
      owner: { userId: session.user.id, draftKey: null },
      lang: "en",
      localization: session.user.localization,
      impersonating: false,
    },
    { project_title: title.trim() || null },
  );
  return json({ order });
}
