import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiUser, flatErrors, json, readJson, requireMethod } from "#app/lib/api.server";
import { listAddresses, saveAddress } from "#server/accounts/addresses";
import { invalidateUser } from "#server/accounts/account";

// GET /api/account/addresses: the user's saved addresses. POST: creates one.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  return json({ addresses: await listAddresses(context.app.db, session.user.id) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const session = await apiUser(request, context);
  const body = await readJson(request);
  const country = body.country && typeof body.country === "object" ? (body.country as { value?: string }).value : body.country;
  const r = await saveAddress(context.app.db, session.user.id, null, { ...body, country });
  if (!r.ok) {
    const fieldErrors = "fieldErrors" in r ? flatErrors(r.fieldErrors) : {};
    return json({ error: Object.values(fieldErrors)[0] ?? "invalid", fieldErrors }, 400);
  }
  await invalidateUser(context.app, session.user.id);
  return json({ address: r.address }, 201);
}
