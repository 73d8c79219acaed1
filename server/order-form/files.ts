// The order form's files (streamed to disk by server/documents) and what their analysis found.
import { documentDetails } from "../documents/analysis";
import { listFiles, type StoredFile } from "../documents/storage";
import type { Scope } from "../scope";
import { type OrderFormRow, type Owner, ownerOf } from "./store";

export function fileOwner(owner: Owner) {
  return owner.userId ? { ownerUserId: owner.userId, draftKey: owner.draftKey } : { draftKey: owner.draftKey };
}

export async function formFiles(scope: Scope, form: OrderFormRow): Promise<StoredFile[]> {
  return listFiles(scope.app, fileOwner(ownerOf(scope)), { orderFormId: form.id });
}

export async function manuscriptDetails(scope: Scope, form: OrderFormRow) {
  const files = (await formFiles(scope, form)).filter((f) => f.kind === "main");
  return documentDetails(
    scope.app,
    files.map((f) => f.id),
  );
}
