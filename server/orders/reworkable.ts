// Which of a user's orders may be re-edited (spec 2 §4), for the order form's re-edit (rework) forms. The order
// form defines the question (`reworkableOrderPort`, server/order-form/rework.ts) and orders answer it: the order's
// view and its flags (./life.ts) are orders', and orders load the order form, not the reverse (ADR 059).
import { reworkableOrderPort, type ReworkableOrder } from "../order-form";
import { flagContextOf, orderBaseQuery, toOrderView } from "./read";

/** The order-form port's provider (server/event-handlers.ts calls this once per process, at start-up). */
export function provideReworkableOrders(): void {
  reworkableOrderPort.provide(reworkableOrder);
}

/** `ref` is the order's id or its external id; ownership, status and (with `enforce`) the re-edit flag are checked here. */
async function reworkableOrder(
  scope: Parameters<typeof reworkableOrderPort.call>[0],
  ref: string | number,
  { enforce }: { enforce: boolean },
): Promise<ReworkableOrder | null> {
  const userId = scope.userId;
  const row = await (
    typeof ref === "number"
      ? orderBaseQuery(scope.app.db).where("o.user_id", "=", userId).where("o.id", "=", ref)
      : orderBaseQuery(scope.app.db).where("o.user_id", "=", userId).where("o.external_id", "=", ref)
  )
    .select(["o.word_count", "o.language_id", "o.area_of_study_id"])
    .executeTakeFirst();
  if (!row || row.status === "cancelled") return null;
  const view = toOrderView(row, await flagContextOf(scope));
  if (enforce && !view.flags.reeditAvailable) return null;
  return {
    id: row.id,
    externalId: row.external_id,
    title: row.title,
    currencyIso: row.currency_iso.trim(),
    wordCount: row.word_count,
    languageId: row.language_id,
    areaOfStudyId: row.area_of_study_id,
    serviceSlugs: view.lineItems.map((l) => l.serviceSlug).filter((s): s is string => typeof s === "string"),
  };
}
