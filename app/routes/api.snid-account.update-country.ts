import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiUser, json, readJson, requireMethod } from "#app/lib/api.server";
import { setCountry } from "#server/accounts/account";

export const loader = () => apiError("method-not-allowed", 405);

// PUT /api/snid-account/update-country/{identity} { id } — id is the country (numeric id or ISO code).
export async function action({ request, context, params }: ActionFunctionArgs) {
  requireMethod(request, "PUT");
  const session = await apiUser(request, context);
  if (params.identity !== session.user.identity) return apiError("forbidden", 403);
  const body = await readJson(request);
  let iso = typeof body.id === "string" && /^[A-Za-z]{2}$/.test(body.id) ? body.id.toUpperCase() : undefined;
  if (!iso && (typeof body.id === "number" || /^\d+$/.test(String(body.id ?? "")))) {
    iso = (await context.app.db.selectFrom("countries").select("iso2").where("id", "=", Number(body.id)).executeTakeFirst())?.iso2;
  }
  if (!iso || !(await setCountry(context.app, session.user.id, iso))) return json({ error: "country-required" }, 400);
  return json({ shouldDisplayCountryModal: false });
}
