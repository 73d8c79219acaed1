// 'Get Started' on a report (spec 3 §2, §7 GET /api/order-form/from-language-assessment/{identity}): the researcher's
// order form draft, with the assessed manuscript attached as its main file (a copy owned by the form, analysed like
// any upload so its word count is counted). A GET, because the spec's report offers it as a link: so it is
// idempotent — the same assessment followed twice answers the same draft with one attached copy (ADR 070).
import { fail, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { listFiles, openFile, saveUpload, deleteFile, type FileOwner } from "../documents/storage";
import { fileOwner, openDraft, ownerOf } from "../order-form";
import { findOwned, ownerOfScope } from "./store";

export async function startOrderFromAssessment(scope: Scope, identity: string): Promise<Result<{ orderFormId: string }>> {
  const row = await findOwned(scope.app.db, ownerOfScope(scope), identity);
  if (!row) return fail("not-found");
  const owner: FileOwner = fileOwner(ownerOf(scope));
  const source = await openFile(scope.app, row.file_id, owner);
  if (!source) return fail("not-found");
  const { form } = await openDraft(scope);
  // Already attached to this draft, and the copy is still there: nothing to do.
  if (row.order_form_id === form.id && row.order_file_id) {
    const attached = await listFiles(scope.app, owner, { orderFormId: form.id, kinds: ["main"] });
    if (attached.some((f) => f.id === row.order_file_id)) return ok({ orderFormId: form.id });
  }
  const copy = await saveUpload(scope.app, source.stream(), {
    ...owner,
    kind: "main",
    originalName: source.originalName,
    orderFormId: form.id,
    uploaderIp: scope.ip,
  });
  // Two requests at once both copied: the first to record its copy wins, the other removes its own.
  const recorded = await scope.app.db
    .updateTable("language_assessments")
    .set({ order_form_id: form.id, order_file_id: copy.id })
    .where("id", "=", row.id)
    .where((eb) =>
      row.order_form_id === null || row.order_file_id === null
        ? eb.or([eb("order_form_id", "is", null), eb("order_file_id", "is", null)])
        : eb.and([eb("order_form_id", "=", row.order_form_id), eb("order_file_id", "=", row.order_file_id)]),
    )
    .executeTakeFirst();
  if (Number(recorded.numUpdatedRows) === 0) await deleteFile(scope.app, copy.id, owner);
  return ok({ orderFormId: form.id });
}
