// The digital editing survey (issue 24, ADR 074): our own short form, no external script. Isomorphic: the page and
// the domain read the same limits and the same schema.
import * as z from "zod/mini";

import { SURVEY_COMMENT_MAX } from "./survey-limits";

export * from "./survey-limits";

export const surveySchema = z.object({
  usefulness: z
    .pipe(z.string(), z.transform(Number))
    .check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 5, "digital:errors.survey-invalid")),
  recommend: z.enum(["yes", "no"], "digital:errors.survey-invalid"),
  comment: z.optional(z.string().check(z.maxLength(SURVEY_COMMENT_MAX, "digital:errors.survey-invalid"))),
});
export type SurveyInput = z.output<typeof surveySchema>;
