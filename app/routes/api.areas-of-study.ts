import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiLang, json } from "~/lib/api.server";
import { AREA_SEARCH_MIN_CHARS, searchAreasOfStudy } from "../../server/catalogue";

// GET /api/areas-of-study?q= : at least 2 characters, at most 6 matches over all three levels (spec 1 §5).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams.get("q") ?? "";
  if (q.trim().length < AREA_SEARCH_MIN_CHARS) return json({ areas: [] });
  return json({ areas: await searchAreasOfStudy(context.app.db, q, apiLang(request)) });
}
