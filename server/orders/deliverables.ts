// Completed files delivered to the researcher (issue 11 §2, §5). They are streamed into the same file store as
// manuscripts, with the same content checks, and listed per order under a short random key
// (/api/order/{externalId}/deliverables/{key}). Who may read them is decided by the caller through
// deriveOrderFlags (downloadAvailable) and ownership; these functions only store and list.
import { randomBytes } from "node:crypto";
import { fail, ok, type Result } from "#common/result";
import type { AppContext } from "../context";
import type { DB } from "../db";
import { saveUpload, UploadError, type UploadSource } from "../documents/storage";
import { recordHistory, type Actor } from "./life";
import type { OrderStatus } from "#common/orders/status";

export interface Deliverable {
  key: string;
  fileId: string;
  name: string;
  sizeBytes: number;
  sha256: string;
  contentType: string;
  createdAt: string;
}

/** Random, URL-safe, 10 characters: not guessable, short enough for a path. */
function newKey(): string {
  return randomBytes(8).toString("base64url").slice(0, 10);
}

/** The order's current deliverables, oldest first. */
export async function listDeliverables(db: DB, orderId: number): Promise<Deliverable[]> {
  const rows = await db
    .selectFrom("deliverables")
    .select(["key", "file_id", "name", "size_bytes", "sha256", "content_type", "created_at"])
    .where("order_id", "=", orderId)
    .where("removed_at", "is", null)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    key: r.key,
    fileId: r.file_id,
    name: r.name,
    sizeBytes: Number(r.size_bytes),
    sha256: r.sha256,
    contentType: r.content_type,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * Stores one delivered file for an order (staff). Errors: `not-found`, `order-cancelled`, and the upload codes
 * of server/documents/storage (`file-type-not-allowed`, `file-too-large`, `empty-file`, …).
 */
export async function addDeliverable(
  app: AppContext,
  actor: Actor,
  orderId: number,
  source: UploadSource,
  originalName: string,
): Promise<Result<Deliverable>> {
  const order = await app.db.selectFrom("orders").select(["id", "user_id", "status"]).where("id", "=", orderId).executeTakeFirst();
  if (!order) return fail("not-found");
  if (order.status === "cancelled") return fail("order-cancelled");
  let stored;
  try {
    // Owned by the researcher (their quota, their files); no analysis: it is not a manuscript to price.
    stored = await saveUpload(app, source, { kind: "deliverable", originalName, ownerUserId: order.user_id, analyse: false });
  } catch (error) {
    if (error instanceof UploadError) return fail(error.code);
    throw error;
  }
  const key = newKey();
  const created = await app.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("orders").select("status").where("id", "=", orderId).forUpdate().executeTakeFirstOrThrow();
    const row = await trx
      .insertInto("deliverables")
      .values({
        order_id: orderId,
        key,
        file_id: stored.id,
        name: stored.originalName,
        size_bytes: stored.sizeBytes,
        sha256: stored.sha256,
        content_type: stored.contentType,
        uploaded_by: actor.userId,
      })
      .returning(["created_at"])
      .executeTakeFirstOrThrow();
    await recordHistory(trx, orderId, "deliverable-added", current.status as OrderStatus, current.status as OrderStatus, actor, {
      data: { key, name: stored.originalName, sha256: stored.sha256 },
    });
    return row;
  });
  return ok({
    key,
    fileId: stored.id,
    name: stored.originalName,
    sizeBytes: stored.sizeBytes,
    sha256: stored.sha256,
    contentType: stored.contentType,
    createdAt: new Date(created.created_at).toISOString(),
  });
}

/** Withdraws a delivered file (staff; a wrong upload). The file row stays for the record. Errors: `not-found`. */
export async function removeDeliverable(app: AppContext, actor: Actor, orderId: number, key: string): Promise<Result> {
  return app.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("orders").select("status").where("id", "=", orderId).forUpdate().executeTakeFirst();
    if (!current) return fail("not-found");
    const removed = await trx
      .updateTable("deliverables")
      .set({ removed_at: new Date() })
      .where("order_id", "=", orderId)
      .where("key", "=", key)
      .where("removed_at", "is", null)
      .returning(["name"])
      .executeTakeFirst();
    if (!removed) return fail("not-found");
    await recordHistory(trx, orderId, "deliverable-removed", current.status as OrderStatus, current.status as OrderStatus, actor, {
      data: { key, name: removed.name },
    });
    return ok();
  });
}
