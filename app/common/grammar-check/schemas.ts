// Schemas of the grammar-check API queries (spec 3 §7). Isomorphic (zod/mini keeps the browser bundle small).
import * as z from "zod/mini";

/** Pages past this are not reached by clicking (30 assessments each): a bad link, refused with 400. */
export const ASSESSMENT_PAGE_MAX = 100_000;

/**
 * GET /api/grammar-check/search: `page` (1 by default). The `identities` of a poll are read from the raw query
 * string by the endpoint (a repeated `identities` / `identities[]`, or one comma-separated value), since a query
 * object keeps only the last of repeated keys; they are only a filter over the caller's own rows.
 */
export const assessmentSearchQuery = z.object({
  page: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,6}$/, { error: "grammar:errors.page-invalid" })),
      z.pipe(
        z.transform((v: string) => Number(v)),
        z
          .number()
          .check(
            z.minimum(1, { error: "grammar:errors.page-invalid" }),
            z.maximum(ASSESSMENT_PAGE_MAX, { error: "grammar:errors.page-invalid" }),
          ),
      ),
    ),
  ),
  identities: z.optional(z.string().check(z.maxLength(4000))),
  "identities[]": z.optional(z.string().check(z.maxLength(4000))),
});
export type AssessmentSearchQuery = z.output<typeof assessmentSearchQuery>;

/** The most identities one poll may name (a page's worth). */
export const POLL_IDENTITIES_MAX = 30;
