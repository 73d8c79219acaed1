import { apiError } from "#app/lib/api.server";

// Any other /api path: a JSON 404 (never an HTML page).
export const loader = () => apiError("not-found", 404);
export const action = () => apiError("not-found", 404);
