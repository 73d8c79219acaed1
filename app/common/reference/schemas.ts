// Query schemas of the reference-data API (areas of study, journals).
import * as z from "zod/mini";

/** `?q=` of a search box: any text (short queries answer an empty list, not an error). */
export const searchQuerySchema = z.object({ q: z._default(z.string().check(z.maxLength(200)), "") });
export type SearchQuery = z.output<typeof searchQuerySchema>;
