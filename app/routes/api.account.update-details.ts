import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiUser, flatErrors, json, readJson, requireMethod } from "#app/lib/api.server";
import { updateDetails } from "#server/accounts/account";

export const loader = () => apiError("method-not-allowed", 405);

// PUT /api/account/{identity}/update-details -> { userDetails } or { error, fieldErrors }. Only one's own account.
export async function action({ request, context, params }: ActionFunctionArgs) {
  requireMethod(request, "PUT");
  const session = await apiUser(request, context);
  if (params.identity !== session.user.identity) return apiError("forbidden", 403);
  const b = await readJson(request);
  const str = (k: string) => (typeof b[k] === "string" ? (b[k] as string) : undefined);
  const countryCode =
    b.countryCode && typeof b.countryCode === "object" ? (b.countryCode as { isoCode?: string }).isoCode : str("countryCode");
  const r = await updateDetails(context.app, session.user.id, {
    title: str("title"),
    firstName: str("firstName") ?? "",
    lastName: str("lastName") ?? "",
    institution: str("institution"),
    orcid: str("orcid"),
    secondaryEmail: str("secondaryEmail"),
    countryCode: countryCode ?? "",
    phoneNumber: str("phoneNumber") ?? "",
    country: str("country") ?? "",
    language: str("language") ?? session.user.language,
    optinToMarketing: b.optinToMarketing === true,
  });
  if (!r.ok) {
    const fieldErrors = flatErrors(r.fieldErrors);
    return json({ error: Object.values(fieldErrors)[0], fieldErrors }, 400);
  }
  return json({ userDetails: r.user });
}
