import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiUser, json } from "#app/lib/api.server";
import { getUserView } from "#server/accounts/account";

// GET /api/account: the signed-in user's account, with the found-us options.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  const [user, snapshot] = await Promise.all([getUserView(context.app, session.user.id), context.app.config.snapshot()]);
  return json({
    user: { ...user, loggedIn: true, impersonatorIdentity: session.impersonatorIdentity ?? null },
    foundUsOptions: snapshot.config.foundUsOptions,
  });
}
