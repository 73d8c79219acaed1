// Digital orders: translations (spec 3 §2–§5, issue 24). The page's state (uses, languages, the word-count-exceeded
// file), the owner's list, one translation, the upload (spends ONE use in ONE transaction with the row and its job),
// archive and the download of the English document.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import {
  DIGITAL_ERRORS,
  FIELDS,
  TRANSLATION_LANGUAGES,
  TRANSLATION_WORD_LIMIT,
  type DigitalOrderType,
  type DigitalStatus,
  type TranslationLanguage,
} from "#common/digital/constants";
import { fail, invalid, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import type { MultipartBody } from "../kernel/multipart";
import { openFile } from "../documents/storage";
import { auditImpersonated } from "../kernel/audit";
import { withStoredFile } from "../documents/files";
import { digitalAccess, languagesFor } from "./access";
import { digitalTranslationJob } from "./jobs";
import { loadOffers } from "./load";
import { spendOneUse } from "./spend";
import {
  activePurchases,
  isIdentity,
  paidPurchases,
  orderView,
  pageOf,
  purchaseView,
  setUserState,
  userState,
  type OrderRow,
} from "./store";
import { countDocumentWords, translationEngineFor, translationOptionsFromEnv } from "./translate";
import { extOf, readOneDocument, refusal } from "./upload";
import type { DigitalDownload, DigitalOrderCreated, DigitalOrderLoad, DigitalOrderView, Pagination } from "./types";

async function translationRefusal(scope: Scope): Promise<Result<never> | null> {
  if (scope.userId === null) return fail("sign-in-required");
  const access = await digitalAccess(scope);
  return access.translations ? null : fail("forbidden");
}

async function findOrder(scope: Scope, identity: string): Promise<OrderRow | null> {
  if (!isIdentity(identity) || scope.userId === null) return null;
  const row = await scope.app.db
    .selectFrom("digital_orders")
    .selectAll()
    .where("id", "=", identity)
    .where("user_id", "=", scope.userId)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

/** GET /api/digital-order/load (spec 3 §3 "State"). */
export async function loadDigitalOrders(scope: Scope): Promise<Result<DigitalOrderLoad>> {
  const refused = await translationRefusal(scope);
  if (refused) return refused;
  const userId = scope.userId!;
  const [offers, active, paid, state, access] = await Promise.all([
    loadOffers(scope),
    activePurchases(scope.app.db, userId, "translation"),
    paidPurchases(scope.app.db, userId, "translation"),
    userState(scope.app.db, userId),
    digitalAccess(scope),
  ]);
  const numberOfUsesAvailable = active.reduce((n, p) => n + (p.uses_remaining ?? 0), 0);
  return ok({
    availableDigitalPurchases: offers.filter((o) => o.type === "translation"),
    digitalPurchases: paid.map((p) => purchaseView(p)),
    numberOfUsesAvailable,
    hasUploadedDigitalTranslation: state.hasUploadedTranslation,
    wordCountExceeded: state.wordCountExceededFileId !== null,
    fileIdentity: state.wordCountExceededFileId,
    languages: languagesFor(access),
    displayType: numberOfUsesAvailable > 0 ? "uses-type" : state.hasUploadedTranslation ? "previous-uploads-type" : "none",
  });
}

/** The owner's translations, newest first, not archived: a page (optionally of one type), or only the listed identities. */
export async function searchDigitalOrders(
  scope: Scope,
  q: { page?: number; type?: DigitalOrderType; identities?: string[]; status?: DigitalStatus },
): Promise<Result<{ results: DigitalOrderView[]; pagination: Pagination }>> {
  const refused = await translationRefusal(scope);
  if (refused) return refused;
  // Digital edits are listed by the editing area; "editing" here names no translation.
  if (q.type === "editing") return ok({ results: [], pagination: { page: Math.max(1, q.page ?? 1), pageSize: 30, total: 0, pages: 0 } });
  let base = scope.app.db.selectFrom("digital_orders").selectAll().where("user_id", "=", scope.userId!).where("archived_at", "is", null);
  if (q.identities) {
    const ids = [...new Set(q.identities.filter(isIdentity))].slice(0, 100);
    if (!ids.length) return ok({ results: [], pagination: { page: 1, pageSize: 30, total: 0, pages: 0 } });
    base = base.where("id", "in", ids);
  }
  // The list's {status} segment (spec 3 §2): filtered here, so its pages count only those rows.
  if (q.status) base = base.where("status", "=", q.status);
  return ok(await pageOf(base, q.identities ? 1 : (q.page ?? 1), (r: OrderRow) => orderView(r)));
}

export async function getDigitalOrder(scope: Scope, identity: string): Promise<Result<DigitalOrderView>> {
  const refused = await translationRefusal(scope);
  if (refused) return refused;
  const row = await findOrder(scope, identity);
  return row ? ok(orderView(row)) : fail("not-found");
}

/**
 * Starts a translation of one .doc/.docx (fields digitalTranslationFiles, language). Refusals, nothing spent:
 * language-required, a language not offered, translation-engine-unavailable (no engine for it now), the upload's
 * codes, digital-translations-word-count-exceeded (with `fileIdentity`; the state is kept for the page's load until
 * the next create), no-uses-left. Then ONE use is spent, the row inserted and its job enqueued in ONE transaction.
 */
export async function createDigitalOrder(scope: Scope, body: MultipartBody): Promise<Result<DigitalOrderCreated>> {
  const refused = await translationRefusal(scope);
  if (refused) return refused;
  const userId = scope.userId!;
  // A new create clears the word-count-exceeded state (spec 3 §4).
  await setUserState(scope.app.db, userId, { word_count_exceeded_file_id: null });
  // No use left at all: refused before the body is read (the spend below is the authority).
  const active = await activePurchases(scope.app.db, userId, "translation");
  if (!active.some((p) => (p.uses_remaining ?? 0) > 0)) return refusal(DIGITAL_ERRORS.noUsesLeft);
  const upload = await readOneDocument(scope, body, FIELDS.translationFiles);
  if (!upload.ok) return upload;
  const language = upload.fields[FIELDS.language] as TranslationLanguage | undefined;
  const access = await digitalAccess(scope);
  if (!language || !(TRANSLATION_LANGUAGES as readonly string[]).includes(language)) {
    await upload.discard();
    return invalid({ [FIELDS.language]: `digital:errors.${DIGITAL_ERRORS.languageRequired}` });
  }
  if (!languagesFor(access).includes(language)) {
    await upload.discard();
    return invalid({ [FIELDS.language]: `digital:errors.${DIGITAL_ERRORS.languageNotInPackage}` });
  }
  const options = translationOptionsFromEnv(scope.app.env);
  if (!translationEngineFor(language, options)) {
    await upload.discard();
    return refusal("translation-engine-unavailable", { language });
  }
  let words: number;
  try {
    words = await withStoredFile(scope.app, (await storedNameOf(scope, upload.file.id))!, (path) =>
      countDocumentWords(path, extOf(upload.file.originalName)),
    );
  } catch {
    await upload.discard();
    return refusal(DIGITAL_ERRORS.translationFailure, { fileName: upload.file.originalName });
  }
  if (words > TRANSLATION_WORD_LIMIT) {
    await setUserState(scope.app.db, userId, { word_count_exceeded_file_id: upload.file.id });
    return fail(DIGITAL_ERRORS.wordCountExceeded, {
      fileIdentity: upload.file.id,
      params: { fileName: upload.file.originalName, words, limit: TRANSLATION_WORD_LIMIT },
    });
  }
  const created = await scope.app.db.transaction().execute(async (trx) => {
    const purchaseId = await spendOneUse(trx, userId, language);
    if (!purchaseId) return null;
    const row = await trx
      .insertInto("digital_orders")
      .values({
        id: randomUUID(),
        user_id: userId,
        file_id: upload.file.id,
        name: upload.file.originalName,
        language,
        purchase_id: purchaseId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await setUserState(trx, userId, { has_uploaded_translation: true });
    await digitalTranslationJob.enqueue(trx, { orderId: row.id });
    await auditImpersonated({ ...scope, app: { db: trx } }, "digital-order.create", { type: "digital-order", id: row.id }, { purchaseId });
    return row;
  });
  if (!created) {
    await upload.discard();
    return refusal(DIGITAL_ERRORS.noUsesLeft);
  }
  return ok({ type: "translation", digitalOrders: [orderView(created)] });
}

async function storedNameOf(scope: Scope, fileId: string): Promise<string | undefined> {
  const row = await scope.app.db.selectFrom("files").select("stored_name").where("id", "=", fileId).executeTakeFirst();
  return row?.stored_name;
}

export async function archiveDigitalOrder(scope: Scope, identity: string): Promise<Result<{ fileName: string }>> {
  const refused = await translationRefusal(scope);
  if (refused) return refused;
  const row = await findOrder(scope, identity);
  if (!row) return fail("not-found");
  if (row.status === "processing") return fail("digital-still-processing");
  await scope.app.db
    .updateTable("digital_orders")
    .set({ archived_at: sql<Date>`now()` })
    .where("id", "=", row.id)
    .where("archived_at", "is", null)
    .execute();
  await auditImpersonated(scope, "digital-order.archive", { type: "digital-order", id: row.id });
  return ok({ fileName: row.name });
}

/**
 * A completed translation's English document; the owner's only (else not-found). Within the allowance (spec 3 §4):
 * its use was spent when it was created (purchase_id is never null), ADR 073.
 */
export async function digitalOrderFile(scope: Scope, identity: string): Promise<Result<DigitalDownload>> {
  const refused = await translationRefusal(scope);
  if (refused) return refused;
  const row = await findOrder(scope, identity);
  if (!row || row.status !== "completed" || !row.output_file_id) return fail("not-found");
  const file = await openFile(scope.app, row.output_file_id, { ownerUserId: scope.userId });
  if (!file) return fail("not-found");
  return ok({ stream: file.stream, fileName: file.originalName, size: file.sizeBytes });
}
