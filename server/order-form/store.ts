// Order forms on the server: one row per wizard, owned by a user or, for
// anonymous visitors, by the browser holding the draft cookie.
import { createHash, randomBytes } from "node:crypto";
import type { Selectable, Updateable } from "kysely";
import type { DB } from "../db";
import type { OrderFormTable } from "../../db/types-orders";

export type OrderFormRow = Selectable<OrderFormTable>;
export type OrderFormPatch = Omit<Updateable<OrderFormTable>, "id" | "user_id" | "draft_key_hash" | "version" | "created_at">;

export interface Owner {
  userId: number | null;
  /** The raw value of the draft cookie, if any. */
  draftKey: string | null;
}

/** Who owns the order forms a request may see: the signed-in user, else the browser's draft key. */
export function ownerOf(scope: { userId: number | null; draftKey: string | null }): Owner {
  return { userId: scope.userId, draftKey: scope.draftKey };
}

const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A 20-character random id (about 99 bits): not guessable, safe in URLs. */
export function newOrderFormId(): string {
  const bytes = randomBytes(20);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export function newDraftKey(): string {
  return randomBytes(24).toString("base64url");
}

export function hashDraftKey(key: string): string {
  return createHash("sha256").update(`draft:${key}`).digest("hex");
}

export async function createOrderForm(db: DB, owner: Owner, init: { currencyIso: string; rework?: boolean }): Promise<OrderFormRow> {
  if (!owner.userId && !owner.draftKey) throw new Error("An order form needs an owner");
  return db
    .insertInto("order_forms")
    .values({
      id: newOrderFormId(),
      user_id: owner.userId,
      draft_key_hash: owner.userId ? null : hashDraftKey(owner.draftKey!),
      currency_iso: init.currencyIso,
      rework: init.rework ?? false,
      current_step: init.rework ? "rework-get-started" : "get-started",
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The order form if it belongs to `owner`; another user's or another draft's form is simply not found. */
export async function findOrderForm(db: DB, id: string, owner: Owner): Promise<OrderFormRow | null> {
  if (!/^[a-z2-9]{20}$/.test(id)) return null;
  const row = await db.selectFrom("order_forms").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  if (row.user_id !== null) return row.user_id === owner.userId ? row : null;
  return owner.draftKey && row.draft_key_hash === hashDraftKey(owner.draftKey) ? row : null;
}

/** The owner's newest unfinished order form. */
export async function currentDraft(db: DB, owner: Owner): Promise<OrderFormRow | null> {
  let q = db.selectFrom("order_forms").selectAll().where("status", "=", "draft").orderBy("updated_at", "desc").limit(1);
  if (owner.userId) q = q.where("user_id", "=", owner.userId);
  else if (owner.draftKey) q = q.where("user_id", "is", null).where("draft_key_hash", "=", hashDraftKey(owner.draftKey));
  else return null;
  return (await q.executeTakeFirst()) ?? null;
}

/** A write to an order form that is no longer a draft (placed, possibly by a concurrent request). */
export class OrderFormClosedError extends Error {
  constructor(readonly formId: string) {
    super(`Order form ${formId} is no longer a draft`);
  }
}

/**
 * Saves a patch; the version goes up so a stale tab cannot silently overwrite newer answers, and placing
 * can tell the form it priced is still the form it places (issue 10 §13). Only a draft is written: the
 * update is conditional on the status, so a write racing a placement either commits before the placing
 * transaction locks the row (which then sees a newer version and re-prices) or waits for that lock and then
 * matches no row (the form is placed): it throws OrderFormClosedError and changes nothing.
 */
export async function saveOrderForm(db: DB, form: OrderFormRow, patch: OrderFormPatch): Promise<OrderFormRow> {
  const row = await db
    .updateTable("order_forms")
    .set((eb) => ({ ...patch, version: eb("version", "+", 1), updated_at: new Date() }))
    .where("id", "=", form.id)
    .where("status", "=", "draft")
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new OrderFormClosedError(form.id);
  return row;
}

/** When an anonymous visitor signs in or registers, their drafts become theirs. */
export async function claimDrafts(db: DB, draftKey: string | null | undefined, userId: number): Promise<number> {
  if (!draftKey) return 0;
  const r = await db
    .updateTable("order_forms")
    .set({ user_id: userId, draft_key_hash: null, updated_at: new Date() })
    .where("user_id", "is", null)
    .where("draft_key_hash", "=", hashDraftKey(draftKey))
    .where("status", "=", "draft")
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function resetDrafts(db: DB, owner: Owner): Promise<void> {
  let q = db.deleteFrom("order_forms").where("status", "=", "draft");
  if (owner.userId) q = q.where("user_id", "=", owner.userId);
  else if (owner.draftKey) q = q.where("user_id", "is", null).where("draft_key_hash", "=", hashDraftKey(owner.draftKey));
  else return;
  await q.execute();
}

/** Whether the visitor has already answered anything on this form (then "new" warns that it continues). */
export function hasProgress(form: OrderFormRow): boolean {
  return form.current_step !== "get-started" && form.current_step !== "rework-get-started";
}
