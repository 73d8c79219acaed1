// The digital tools' survey (issue 24, ADR 074): our own short form (usefulness 1–5, would recommend, free text up
// to 2,000 characters) replacing the external survey embed of spec 3 §4. A signed-in researcher answers; staff read
// the answers (newest first, 50 a page) and the averages.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { ok, fail, invalid, type Result } from "#common/result";
import { SURVEY_AREAS, surveySchema } from "#common/digital/survey";
import type { Scope } from "../scope";

export const SURVEY_PAGE_SIZE = 50;

export interface SurveyAnswerView {
  id: string;
  createdAt: string;
  area: (typeof SURVEY_AREAS)[number];
  usefulness: number;
  recommend: boolean;
  comment: string | null;
  userEmail: string | null;
}

export interface SurveySummary {
  answers: number;
  averageUsefulnessTenths: number | null;
  recommendPercent: number | null;
}

/** Stores one answer of the signed-in researcher. The fields are the posted form's (strings). */
export async function submitDigitalSurvey(
  scope: Scope,
  area: string,
  fields: Record<string, string | undefined>,
): Promise<Result<{ id: string }>> {
  if (!scope.userId) return fail("not-found");
  if (!(SURVEY_AREAS as readonly string[]).includes(area)) return fail("not-found");
  const parsed = surveySchema.safeParse({
    usefulness: fields.usefulness ?? "",
    recommend: fields.recommend ?? "",
    comment: fields.comment || undefined,
  });
  if (!parsed.success) return invalid({ survey: "digital:errors.survey-invalid" });
  const id = randomUUID();
  await scope.app.db
    .insertInto("digital_survey_answers")
    .values({
      id,
      user_id: scope.userId,
      area: area as (typeof SURVEY_AREAS)[number],
      usefulness: parsed.data.usefulness,
      recommend: parsed.data.recommend === "yes",
      comment: parsed.data.comment?.trim() || null,
    })
    .execute();
  return ok({ id });
}

/** Staff only: the answers, newest first, and their summary. */
export async function listDigitalSurveyAnswers(
  scope: Scope,
  page: number,
): Promise<Result<{ answers: SurveyAnswerView[]; summary: SurveySummary; pages: number; page: number }>> {
  if (!scope.session?.user.isStaff) return fail("forbidden");
  const db = scope.app.db;
  const summaryRow = await db
    .selectFrom("digital_survey_answers")
    .select([
      sql<string>`count(*)`.as("n"),
      sql<string | null>`round(avg(usefulness) * 10)`.as("avg10"),
      sql<string | null>`round(100.0 * sum(case when recommend then 1 else 0 end) / nullif(count(*), 0))`.as("rec"),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(summaryRow.n);
  const pages = Math.max(1, Math.ceil(total / SURVEY_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await db
    .selectFrom("digital_survey_answers as a")
    .leftJoin("users as u", "u.id", "a.user_id")
    .select(["a.id", "a.created_at", "a.area", "a.usefulness", "a.recommend", "a.comment", "u.email"])
    .orderBy("a.created_at", "desc")
    .orderBy("a.id")
    .limit(SURVEY_PAGE_SIZE)
    .offset((current - 1) * SURVEY_PAGE_SIZE)
    .execute();
  return ok({
    page: current,
    pages,
    summary: {
      answers: total,
      averageUsefulnessTenths: summaryRow.avg10 === null ? null : Number(summaryRow.avg10),
      recommendPercent: summaryRow.rec === null ? null : Number(summaryRow.rec),
    },
    answers: rows.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created_at).toISOString(),
      area: r.area,
      usefulness: r.usefulness,
      recommend: r.recommend,
      comment: r.comment,
      userEmail: r.email ?? null,
    })),
  });
}
