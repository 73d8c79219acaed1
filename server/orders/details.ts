// What the order details page shows (issue 11 §4, spec 2 §2 "Order details"): the order with its flags
// (server/orders/life.ts), its delivered files when they may be downloaded, its original files, the edit form's
// options in edit mode, and the bank details of an open invoice. One read for the page's loader.
import type { Scope } from "../scope";
import { bankDetailsFor } from "../config";
import { listFiles } from "../documents/storage";
import { findOrder, type OrderView } from "./read";
import { listDeliverables } from "./deliverables";
import { orderServiceOptions, type EditView } from "./edit";
import { confirmationMailOf } from "./life";

export interface OrderDetailsPage {
  order: Omit<OrderView, "id">;
  /** The delivered files, listed only when they may be downloaded (flags.downloadAvailable). */
  deliverables: { key: string; name: string; sizeBytes: number }[];
  originalFiles: { name: string; sizeBytes: number; kind: string }[];
  edit: EditView | null;
  bank: ReturnType<typeof bankDetailsFor>;
  timeZone: string;
  /** The preprint promotion (configuration, en and cn only). */
  preprint: boolean;
  /** Thank-you view: a provider has still to confirm the payment (a pending payment): the page polls. */
  paymentPending: boolean;
  /** Thank-you view: where the "order received" e-mail stands; the page claims no mail that was not sent. */
  confirmationMail: Awaited<ReturnType<typeof confirmationMailOf>>;
}

/** The page of one of the user's orders, or null (not theirs, or no such order: "not found"). */
export async function orderDetailsPage(
  scope: Scope,
  externalId: string,
  { editing }: { editing: boolean },
): Promise<OrderDetailsPage | null> {
  const found = await findOrder(scope, externalId);
  if (!found) return null;
  const { id, ...order } = found;
  const [snapshot, deliverables, formRow, confirmationMail] = await Promise.all([
    scope.app.config.snapshot(),
    order.flags.downloadAvailable ? listDeliverables(scope.app.db, id) : Promise.resolve([]),
    scope.app.db.selectFrom("orders").select("order_form_id").where("id", "=", id).executeTakeFirst(),
    confirmationMailOf(scope.app, id),
  ]);
  const files = formRow ? await listFiles(scope.app, { ownerUserId: scope.userId }, { orderFormId: formRow.order_form_id }) : [];
  const edit = editing ? await orderServiceOptions(scope, externalId) : null;
  return {
    order,
    deliverables: deliverables.map((d) => ({ key: d.key, name: d.name, sizeBytes: d.sizeBytes })),
    originalFiles: files
      .filter((f) => f.kind !== "deliverable" && f.kind !== "support")
      .map((f) => ({ name: f.originalName, sizeBytes: f.sizeBytes, kind: f.kind })),
    edit: edit?.ok && edit.value.editable ? edit.value : null,
    bank: bankDetailsFor(snapshot.config, order.currency.isoCode),
    timeZone: snapshot.localizations.find((l) => l.identity === scope.localization)?.timeZone ?? "UTC",
    preprint: snapshot.config.showPreprintPromotion === true && (scope.lang === "en" || scope.lang === "cn"),
    confirmationMail,
    paymentPending: !order.paid && order.pendingPayments.length > 0 && !order.flags.cancelled,
  };
}
