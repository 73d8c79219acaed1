// Digital edits (spec 3 §2–§5, issue 24): the editing page's load, the owner's list, one edit, the upload (needs an
// active subscription or the trial flag), archive (completed or failed), the downloads (tracked and clean) and
// 'send to professional editing' (an order form with the ORIGINAL document attached, once however often followed).
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { DIGITAL_ERRORS, FIELDS, STYLES_OF_ENGLISH, type DigitalStatus, type StyleOfEnglish } from "#common/digital/constants";
import { fail, invalid, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { Scope } from "../scope";
import type { MultipartBody } from "../kernel/multipart";
import { deleteFile, listFiles, openFile, saveUpload, type FileOwner } from "../documents/storage";
import { auditImpersonated } from "../kernel/audit";
import { fileOwner, openDraft, ownerOf } from "../order-form";
import { digitalAccess } from "./access";
import { digitalEditJob } from "./jobs";
import { loadOffers } from "./load";
import { activePurchases, editView, paidPurchases, isIdentity, pageOf, purchaseView, userState, setUserState, type EditRow } from "./store";
import { readOneDocument, refusal } from "./upload";
import type { DigitalDownload, DigitalEditLoad, DigitalEditView, Pagination } from "./types";

/** Signed in and the area open (allowsDigitalEditing), else the refusal. */
async function editingRefusal(scope: Scope): Promise<Result<never> | null> {
  if (scope.userId === null) return fail("sign-in-required");
  const access = await digitalAccess(scope);
  return access.editing ? null : fail("forbidden");
}

async function findEdit(scope: Scope, identity: string): Promise<EditRow | null> {
  if (!isIdentity(identity) || scope.userId === null) return null;
  const row = await scope.app.db
    .selectFrom("digital_edits")
    .selectAll()
    .where("id", "=", identity)
    .where("user_id", "=", scope.userId)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

/** GET /api/digital-edit/load (spec 3 §3 "Load response"). */
export async function loadDigitalEdit(scope: Scope): Promise<Result<DigitalEditLoad>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  const userId = scope.userId!;
  const [offers, active, all, state] = await Promise.all([
    loadOffers(scope),
    activePurchases(scope.app.db, userId, "editing"),
    paidPurchases(scope.app.db, userId, "editing"),
    userState(scope.app.db, userId),
  ]);
  // The subscription shown: the one valid longest.
  const current = active.length ? active[active.length - 1] : null;
  const canUpload = Boolean(current) || state.editingTrial;
  return ok({
    availableDigitalPurchases: offers.filter((o) => o.type === "editing"),
    digitalEditingPurchase: current ? purchaseView(current) : null,
    digitalPurchases: all.map((p) => purchaseView(p)),
    hasDigitalEditingPurchase: Boolean(current),
    hasUploadedDigitalEdit: state.hasUploadedEdit,
    digitalEditingTrial: state.editingTrial,
    canUpload,
    displayType: current ? "subscription-type" : "none",
  });
}

/** The owner's edits, newest first, not archived: a page, or (polling) only the listed identities. */
export async function searchDigitalEdits(
  scope: Scope,
  q: { page?: number; identities?: string[]; status?: DigitalStatus },
): Promise<Result<{ results: DigitalEditView[]; pagination: Pagination }>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  let base = scope.app.db.selectFrom("digital_edits").selectAll().where("user_id", "=", scope.userId!).where("archived_at", "is", null);
  if (q.identities) {
    const ids = [...new Set(q.identities.filter(isIdentity))].slice(0, 100);
    if (!ids.length) return ok({ results: [], pagination: { page: 1, pageSize: 30, total: 0, pages: 0 } });
    base = base.where("id", "in", ids);
  }
  // The list's {status} segment (spec 3 §2): filtered here, so its pages count only those rows.
  if (q.status) base = base.where("status", "=", q.status);
  return ok(await pageOf(base, q.identities ? 1 : (q.page ?? 1), (r: EditRow) => editView(r)));
}

/** One edit: another user's, unknown or archived → not-found. */
export async function getDigitalEdit(scope: Scope, identity: string): Promise<Result<DigitalEditView>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  const row = await findEdit(scope, identity);
  return row ? ok(editView(row)) : fail("not-found");
}

/** May upload now: an active subscription or the trial flag. */
async function canUploadEdit(scope: Scope): Promise<boolean> {
  const userId = scope.userId!;
  const [active, state] = await Promise.all([activePurchases(scope.app.db, userId, "editing"), userState(scope.app.db, userId)]);
  return active.length > 0 || state.editingTrial;
}

/**
 * Starts a digital edit of exactly one .doc/.docx (fields digitalEditFiles, styleOfEnglish). Needs an active
 * subscription or the trial flag (`subscription-required`, checked before the body is read). The row, the user's
 * hasUploaded flag and the job in one transaction.
 */
export async function createDigitalEdit(scope: Scope, body: MultipartBody): Promise<Result<{ digitalEdits: DigitalEditView[] }>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  if (!(await canUploadEdit(scope))) return refusal(DIGITAL_ERRORS.subscriptionRequired);
  const upload = await readOneDocument(scope, body, FIELDS.editFiles);
  if (!upload.ok) return upload;
  const style = upload.fields[FIELDS.styleOfEnglish];
  if (!(STYLES_OF_ENGLISH as readonly string[]).includes(style ?? "")) {
    await upload.discard();
    return invalid({ [FIELDS.styleOfEnglish]: `digital:errors.${DIGITAL_ERRORS.styleRequired}` });
  }
  const userId = scope.userId!;
  const row = await scope.app.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("digital_edits")
      .values({
        id: randomUUID(),
        user_id: userId,
        file_id: upload.file.id,
        name: upload.file.originalName,
        style_of_english: style as StyleOfEnglish,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await setUserState(trx, userId, { has_uploaded_edit: true });
    await digitalEditJob.enqueue(trx, { editId: inserted.id });
    await auditImpersonated({ ...scope, app: { db: trx } }, "digital-edit.create", { type: "digital-edit", id: inserted.id });
    return inserted;
  });
  return ok({ digitalEdits: [editView(row)] });
}

/** Archives a completed or failed edit (spec 3 §4: '%(fileName)s deleted'); a processing one is refused. */
export async function archiveDigitalEdit(scope: Scope, identity: string): Promise<Result<{ fileName: string }>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  const row = await findEdit(scope, identity);
  if (!row) return fail("not-found");
  if (row.status === "processing") return fail("digital-still-processing");
  await scope.app.db
    .updateTable("digital_edits")
    .set({ archived_at: sql<Date>`now()` })
    .where("id", "=", row.id)
    .where("archived_at", "is", null)
    .execute();
  await auditImpersonated(scope, "digital-edit.archive", { type: "digital-edit", id: row.id });
  return ok({ fileName: row.name });
}

/**
 * A completed edit's file: the tracked-changes document or the clean ("lewis") version. The owner's only; unknown,
 * archived, another user's or not completed → not-found. The allowance (spec 3 §4 "Document download"): the
 * subscription or trial was checked when the edit was created, so a completed edit is within it; a lapsed
 * subscription does not take back what it paid for (ADR 073).
 */
export async function digitalEditFile(scope: Scope, identity: string, version: "tracked" | "clean"): Promise<Result<DigitalDownload>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  const row = await findEdit(scope, identity);
  if (!row || row.status !== "completed") return fail("not-found");
  const fileId = version === "tracked" ? row.tracked_file_id : row.clean_file_id;
  if (!fileId) return fail("not-found");
  const file = await openFile(scope.app, fileId, { ownerUserId: scope.userId });
  if (!file) return fail("not-found");
  return ok({ stream: file.stream, fileName: file.originalName, size: file.sizeBytes });
}

/**
 * 'Send to professional editing' (GET /api/order-form/from-digital-edit/{identity}): the researcher's order form
 * draft with the ORIGINAL document attached as its main file (a copy owned by the form). Idempotent like the grammar
 * check's: followed twice, one copy.
 */
export async function startOrderFromDigitalEdit(scope: Scope, identity: string): Promise<Result<{ orderFormId: string; url: string }>> {
  const refused = await editingRefusal(scope);
  if (refused) return refused;
  const row = await findEdit(scope, identity);
  if (!row) return fail("not-found");
  const owner: FileOwner = fileOwner(ownerOf(scope));
  const source = await openFile(scope.app, row.file_id, owner);
  if (!source) return fail("not-found");
  const { form } = await openDraft(scope);
  const url = paths.submit(scope.lang, "get-started");
  if (row.order_form_id === form.id && row.order_file_id) {
    const attached = await listFiles(scope.app, owner, { orderFormId: form.id, kinds: ["main"] });
    if (attached.some((f) => f.id === row.order_file_id)) return ok({ orderFormId: form.id, url });
  }
  const copy = await saveUpload(scope.app, source.stream(), {
    ...owner,
    kind: "main",
    originalName: source.originalName,
    orderFormId: form.id,
    uploaderIp: scope.ip,
  });
  const recorded = await scope.app.db
    .updateTable("digital_edits")
    .set({ order_form_id: form.id, order_file_id: copy.id })
    .where("id", "=", row.id)
    .where((eb) =>
      row.order_form_id === null || row.order_file_id === null
        ? eb.or([eb("order_form_id", "is", null), eb("order_file_id", "is", null)])
        : eb.and([eb("order_form_id", "=", row.order_form_id), eb("order_file_id", "=", row.order_file_id)]),
    )
    .executeTakeFirst();
  if (Number(recorded.numUpdatedRows) === 0) await deleteFile(scope.app, copy.id, owner);
  return ok({ orderFormId: form.id, url });
}
