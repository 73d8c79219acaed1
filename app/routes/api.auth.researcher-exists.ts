import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, json, readJson, requireMethod } from "#app/lib/api.server";
import { allowExistenceCheck, researcherExists } from "#server/accounts/registration";

export const loader = () => apiError("method-not-allowed", 405);

// POST /api/auth/researcher_exists { email } -> { researcherExists } (the first stage of registration; rate-limited).
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readJson(request);
  const email = typeof body.email === "string" ? body.email.trim() : "";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) return json({ error: "emailAddressInvalidFormat" }, 400);
  if (!(await allowExistenceCheck(context.app, context.ip))) return json({ error: "too-many-requests" }, 429);
  const exists = await researcherExists(context.app.db, email);
  return json(exists ? { researcherExists: true, error: "email-already-exists" } : { researcherExists: false });
}
