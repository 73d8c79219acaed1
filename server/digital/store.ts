// The digital rows (migration 0038): identities, owners, and how a row reads as the API's view.
import type { Selectable } from "kysely";
import { sql } from "kysely";
import { DIGITAL_PAGE_SIZE, TRANSLATION_LANGUAGES, type TranslationLanguage } from "#common/digital/constants";
import type { DigitalEditTable, DigitalOrderTable, DigitalPurchaseTable } from "../../db/types-digital";
import type { DB } from "../db";
import type { AvailablePurchase, DigitalEditView, DigitalOrderView, DigitalPurchaseView, Pagination } from "./types";

export type PurchaseRow = Selectable<DigitalPurchaseTable>;
export type EditRow = Selectable<DigitalEditTable>;
export type OrderRow = Selectable<DigitalOrderTable>;

/** An identity is a UUID: anything else names nothing and never reaches SQL. */
const IDENTITY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isIdentity = (value: unknown): value is string => typeof value === "string" && IDENTITY.test(value);

const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

export const languagesOf = (value: unknown): TranslationLanguage[] =>
  (Array.isArray(value) ? value : []).filter((l): l is TranslationLanguage => (TRANSLATION_LANGUAGES as readonly string[]).includes(l));

export function isValid(row: PurchaseRow, now = new Date()): boolean {
  if (row.status !== "active" || !row.starts_at || !row.ends_at) return false;
  return new Date(row.starts_at) <= now && now < new Date(row.ends_at);
}

export function purchaseView(row: PurchaseRow, now = new Date()): DigitalPurchaseView {
  return {
    identity: row.id,
    type: row.type,
    price: Number(row.price),
    currencyIso: row.currency_iso.trim(),
    endsAt: iso(row.ends_at) ?? "",
    startsAt: iso(row.starts_at) ?? "",
    valid: isValid(row, now),
    numberOfUsesRemaining: row.type === "translation" ? row.uses_remaining : null,
    allowedLanguages: languagesOf(row.allowed_languages),
    receiptCode: row.receipt_code,
    availablePurchaseIdentity: row.offer_identity,
    invoiceNumber: row.invoice_number,
  };
}

export function editView(row: EditRow): DigitalEditView {
  return {
    identity: row.id,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    fileName: row.name,
    styleOfEnglish: row.style_of_english,
    changes: row.changes,
    words: row.words,
    failureReason: row.failure_reason,
  };
}

export function orderView(row: OrderRow): DigitalOrderView {
  return {
    identity: row.id,
    type: row.type,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    fileName: row.name,
    digitalPurchaseIdentity: row.purchase_id,
    language: row.language,
    engine: row.engine,
    words: row.words,
    failureReason: row.failure_reason,
  };
}

/** The user's active purchases of a type, valid now, oldest-ending first. */
export function activePurchases(db: DB, userId: number, type: "editing" | "translation") {
  return db
    .selectFrom("digital_purchases")
    .selectAll()
    .where("user_id", "=", userId)
    .where("type", "=", type)
    .where("status", "=", "active")
    .where("starts_at", "<=", sql<Date>`now()`)
    .where("ends_at", ">", sql<Date>`now()`)
    .orderBy("ends_at", "asc")
    .orderBy("created_at", "asc")
    .execute();
}

/** Every paid purchase of a type (ended or used up too: `valid` says which), newest first, for the list of invoices. */
export function paidPurchases(db: DB, userId: number, type: "editing" | "translation") {
  return db
    .selectFrom("digital_purchases")
    .selectAll()
    .where("user_id", "=", userId)
    .where("type", "=", type)
    .where("status", "=", "active")
    .orderBy("created_at", "desc")
    .execute();
}

export interface UserState {
  editingTrial: boolean;
  hasUploadedEdit: boolean;
  hasUploadedTranslation: boolean;
  chineseTrialGrantedAt: Date | null;
  wordCountExceededFileId: string | null;
}

export async function userState(db: DB, userId: number): Promise<UserState> {
  const row = await db.selectFrom("digital_user_state").selectAll().where("user_id", "=", userId).executeTakeFirst();
  return {
    editingTrial: row?.editing_trial ?? false,
    hasUploadedEdit: row?.has_uploaded_edit ?? false,
    hasUploadedTranslation: row?.has_uploaded_translation ?? false,
    chineseTrialGrantedAt: row?.chinese_trial_granted_at ?? null,
    wordCountExceededFileId: row?.word_count_exceeded_file_id ?? null,
  };
}

/** Upserts some of a user's state columns (in the caller's transaction when given one). */
export async function setUserState(
  db: DB,
  userId: number,
  values: Partial<{
    editing_trial: boolean;
    has_uploaded_edit: boolean;
    has_uploaded_translation: boolean;
    chinese_trial_granted_at: Date;
    word_count_exceeded_file_id: string | null;
  }>,
): Promise<void> {
  await db
    .insertInto("digital_user_state")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
    .execute();
}

/** One page of a list query (a kysely select of one table, already filtered), newest first. */
export async function pageOf<R>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  base: any,
  page: number,
  map: (row: never) => R,
): Promise<{ results: R[]; pagination: Pagination }> {
  const p = Math.max(1, Math.floor(page || 1));
  const [rows, count] = await Promise.all([
    base
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(DIGITAL_PAGE_SIZE)
      .offset((p - 1) * DIGITAL_PAGE_SIZE)
      .execute(),
    base
      .clearSelect()
      .clearOrderBy()
      .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number((count as { n: string | number }).n);
  return {
    results: (rows as never[]).map(map),
    pagination: { page: p, pageSize: DIGITAL_PAGE_SIZE, total, pages: Math.ceil(total / DIGITAL_PAGE_SIZE) },
  };
}

export type { AvailablePurchase };
