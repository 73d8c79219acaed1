import type { LoaderFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { json } from "~/lib/api.server";

/** Journal search: at least 3 characters (spec 1 §5), at most 10 suggestions (spec 2 §9). */
export const JOURNAL_SEARCH_MIN = 3;
export const JOURNAL_SUGGESTIONS = 10;

// GET /api/journals?q= : journals whose name or ISSN contains the query.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  if (q.length < JOURNAL_SEARCH_MIN) return json({ journals: [] });
  const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const journals = await context.app.db
    .selectFrom("journals")
    .select(["id", "name", "issn", "publisher", "url"])
    .where((eb) => eb.or([eb(sql`lower(name)`, "like", like), eb(sql`lower(coalesce(issn, ''))`, "like", like)]))
    .orderBy(sql`position(${q.toLowerCase()} in lower(name))`)
    .orderBy("name")
    .limit(JOURNAL_SUGGESTIONS)
    .execute();
  return json({ journals });
}
