import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiUser, flatErrors, json, readJson } from "#app/lib/api.server";
import { deleteAddress, getAddress, saveAddress } from "#server/accounts/addresses";
import { invalidateUser } from "#server/accounts/account";

// GET, PUT and DELETE /api/account/addresses/{id}. Another user's address is a 404.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await apiUser(request, context);
  const address = await getAddress(context.app.db, session.user.id, Number(params.id));
  return address ? json({ address }) : apiError("not-found", 404);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = await apiUser(request, context);
  const id = Number(params.id);
  if (request.method === "DELETE") {
    if (!(await deleteAddress(context.app.db, session.user.id, id))) return apiError("not-found", 404);
    await invalidateUser(context.app, session.user.id);
    return json({ deleted: true });
  }
  if (request.method !== "PUT") return apiError("method-not-allowed", 405);
  const body = await readJson(request);
  const country = body.country && typeof body.country === "object" ? (body.country as { value?: string }).value : body.country;
  const r = await saveAddress(context.app.db, session.user.id, Number.isSafeInteger(id) ? id : -1, { ...body, country });
  if (!r.ok) {
    if ("notFound" in r) return apiError("not-found", 404);
    const fieldErrors = flatErrors(r.fieldErrors);
    return json({ error: Object.values(fieldErrors)[0] ?? "invalid", fieldErrors }, 400);
  }
  await invalidateUser(context.app, session.user.id);
  return json({ address: r.address });
}
