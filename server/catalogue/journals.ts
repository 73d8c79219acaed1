// Target-journal search (spec 1 §5 "details"): name or ISSN contains the query.
import { sql } from "kysely";
import type { DB } from "../db";

/** At least 3 characters (spec 1 §5), at most 10 suggestions (spec 2 §9). */
export const JOURNAL_SEARCH_MIN = 3;
export const JOURNAL_SUGGESTIONS = 10;

export interface JournalSuggestion {
  id: number;
  name: string;
  issn: string | null;
  publisher: string | null;
  url: string | null;
}

export async function searchJournals(db: DB, query: string): Promise<JournalSuggestion[]> {
  const q = query.trim();
  if (q.length < JOURNAL_SEARCH_MIN) return [];
  const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom("journals")
    .select(["id", "name", "issn", "publisher", "url"])
    .where((eb) => eb.or([eb(sql`lower(name)`, "like", like), eb(sql`lower(coalesce(issn, ''))`, "like", like)]))
    .orderBy(sql`position(${q.toLowerCase()} in lower(name))`)
    .orderBy("name")
    .limit(JOURNAL_SUGGESTIONS)
    .execute();
}
