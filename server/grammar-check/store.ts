// The language_assessments rows (migration 0037): who owns one, and how a row reads as the API's view.
import type { Selectable } from "kysely";
import { ISSUE_CATEGORIES, isComplete, isFailed, isProcessing, scoreCategory, type IssueCategory } from "#common/grammar-check/constants";
import type { LanguageAssessmentTable } from "../../db/types-grammar";
import type { DB } from "../db";
// The draft cookie is stored hashed exactly as an order form's: one cookie binds a browser's drafts, uploads and
// assessments alike, and the table never holds a live cookie.
import { hashDraftKey } from "../order-form";
import type { AssessmentView, EngineIssue } from "./types";

export type AssessmentRow = Selectable<LanguageAssessmentTable>;

/** Who an assessment belongs to: the signed-in user, else the browser's draft cookie. */
export interface AssessmentOwner {
  userId: number | null;
  draftKey: string | null;
}

export function ownerOfScope(scope: { userId: number | null; draftKey: string | null }): AssessmentOwner {
  return { userId: scope.userId, draftKey: scope.draftKey };
}

/** An identity is a UUID: anything else names nothing and never reaches SQL (a malformed uuid would be a 500). */
const IDENTITY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isIdentity(value: unknown): value is string {
  return typeof value === "string" && IDENTITY.test(value);
}

/**
 * The rows an owner may see: a user's by user id; a visitor's by the hash of their cookie while unclaimed.
 * Null when the scope owns nothing (a visitor without a cookie).
 */
export function ownedQuery(db: DB, owner: AssessmentOwner) {
  const q = db.selectFrom("language_assessments").selectAll();
  if (owner.userId !== null) return q.where("user_id", "=", owner.userId);
  if (owner.draftKey) return q.where("user_id", "is", null).where("draft_key_hash", "=", hashDraftKey(owner.draftKey));
  return null;
}

/** One owned row that is not archived, or null (unknown, another owner's, archived: the caller says not-found). */
export async function findOwned(db: DB, owner: AssessmentOwner, identity: string): Promise<AssessmentRow | null> {
  if (!isIdentity(identity)) return null;
  const q = ownedQuery(db, owner);
  if (!q) return null;
  return (await q.where("id", "=", identity).where("archived_at", "is", null).executeTakeFirst()) ?? null;
}

function parseJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    try {
      return JSON.parse(value) as T;
    } catch {
      return null;
    }
  }
  return value as T;
}

export function errorCountOf(row: AssessmentRow): Record<IssueCategory, number> | null {
  const raw = parseJson<Record<string, number>>(row.error_count);
  if (!raw) return null;
  return Object.fromEntries(ISSUE_CATEGORIES.map((c) => [c, Number(raw[c] ?? 0)])) as Record<IssueCategory, number>;
}

export function issuesOf(row: AssessmentRow): EngineIssue[] {
  return parseJson<EngineIssue[]>(row.issues) ?? [];
}

export function toView(row: AssessmentRow): AssessmentView {
  const score = row.score_tenths === null ? null : row.score_tenths / 10;
  const complete = isComplete(row.score_status, row.error_count_status);
  return {
    identity: row.id,
    fileIdentity: row.file_id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    score: complete ? score : null,
    percentile: complete ? row.percentile : null,
    scoreStatus: row.score_status,
    errorCountStatus: row.error_count_status,
    errorCount: complete ? errorCountOf(row) : null,
    category: complete && score !== null ? scoreCategory(score) : null,
    complete,
    processing: isProcessing(row.score_status, row.error_count_status),
    failed: isFailed(row.score_status, row.error_count_status),
  };
}
