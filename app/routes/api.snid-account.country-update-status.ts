import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiUser, json, readJson } from "#app/lib/api.server";
import { getUserView, invalidateUser } from "#server/accounts/account";

const STATUSES = new Set(["dismissed", "updated", "pending"]);

// GET and POST /api/snid-account/country-update-status/{identity} -> { shouldDisplayCountryModal }.
// POST { updateStatus } records that the user dismissed or completed the country prompt.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  if (params.identity !== session.user.identity) return apiError("forbidden", 403);
  const user = await getUserView(context.app, session.user.id);
  return json({ shouldDisplayCountryModal: Boolean(user?.shouldDisplayCountryModal) });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError("method-not-allowed", 405);
  const session = await apiUser(request, context);
  if (params.identity !== session.user.identity) return apiError("forbidden", 403);
  const body = await readJson(request);
  const status = String(body.updateStatus ?? "");
  if (!STATUSES.has(status)) return json({ error: "invalid-update-status" }, 400);
  await context.app.db.updateTable("users").set({ snid_country_update_status: status }).where("id", "=", session.user.id).execute();
  await invalidateUser(context.app, session.user.id);
  const user = await getUserView(context.app, session.user.id);
  return json({ shouldDisplayCountryModal: Boolean(user?.shouldDisplayCountryModal) });
}
