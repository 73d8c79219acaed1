// Re-edit (rework) order forms: a new order form that reworks one of the
// user's orders. It starts on the rework start screen (rework-get-started:
// the revised manuscript, word count, language and what to look at), then
// offers the "rework" services group priced against the original order's
// services (a touch-up is a share of the service it touches up; automated
// re-editing is free after premium editing), with the re-edit discount.
import type { ReworkBasicDetails } from "#common/order-form/schemas";
import { checkField, reworkInstructionsField } from "#common/order-form/schemas";
import { invalid, ok } from "#common/result";
import { getCatalogue, type Catalogue } from "../catalogue";
import { createOrderForm, ownerOf, saveOrderForm, type OrderFormRow } from "./store";
import type { Scope } from "../scope";
import { definePort } from "../kernel/ports";
import type { SaveResult } from "./types";
import { saveGetStarted } from "./steps/get-started";

export { REWORK_INSTRUCTIONS_MAX } from "#common/order-form/schemas";
export const REWORK_GROUP = "rework";

export interface ReworkableOrder {
  id: number;
  externalId: string;
  title: string;
  currencyIso: string;
  wordCount: number | null;
  languageId: number | null;
  areaOfStudyId: number | null;
  /** The services of the order, from its priced line items. */
  serviceSlugs: string[];
}

/** Who asks for a reworkable order: the signed-in user (or staff viewing as them, whose rules are relaxed). */
export type ReworkScope = Pick<Scope, "app" | "userId" | "impersonatorId">;

/**
 * The orders area's answer to "which of this user's orders may be re-edited" (server/orders/reworkable.ts,
 * provided at start-up by server/event-handlers.ts): the order's view and flags are orders', and orders load the
 * order form, so the order form asks through a port instead of importing them (ADR 059).
 */
export const reworkableOrderPort =
  definePort<
    (scope: ReworkScope & { userId: number }, ref: string | number, options: { enforce: boolean }) => Promise<ReworkableOrder | null>
  >("order-form.reworkable-order");

/**
 * One of the user's orders that may be re-edited now (spec 2 §4: completed, its files downloadable, within the
 * re-edit window, no figures or manuscript formatting unless staff view as the user; server/orders/life.ts
 * derives the flag), or null: anyone else's order, an unknown id, or one that offers no re-edit. With
 * `enforce: false` only ownership is checked (a rework form already started keeps showing its original).
 */
export async function reworkableOrder(
  scope: ReworkScope,
  ref: string | number,
  { enforce = true }: { enforce?: boolean } = {},
): Promise<ReworkableOrder | null> {
  const userId = scope.userId;
  if (!userId) return null;
  if (typeof ref === "string" && !/^[A-Z]{2}\d{1,12}$/.test(ref)) return null;
  return reworkableOrderPort.call({ ...scope, userId }, ref, { enforce });
}

/**
 * Which rework services an order can have, each with the original service it
 * reworks: touch-up editing and automated re-editing rework the order's editing,
 * touch-up translation its translation, touch-up formatting its manuscript
 * formatting. The config's reeditServiceMap (original → rework service) adds to
 * or overrides these pairs.
 */
export function reworkOriginals(
  catalogue: Pick<Catalogue, "services">,
  originalSlugs: string[],
  reeditServiceMap: Record<string, string> = {},
): Record<string, string> {
  const originals = originalSlugs
    .map((slug) => catalogue.services.find((s) => s.slug === slug))
    .filter((s) => s !== undefined && s.group !== REWORK_GROUP);
  const editing = originals.find((s) => s!.type === "editing");
  const translation = originals.find((s) => s!.type === "translation");
  const formatting = originals.find((s) => s!.slug === "manuscript-formatting");
  const pairs: Record<string, string> = {};
  if (editing) {
    pairs["touch-up-editing"] = editing.slug;
    pairs["automated-re-editing"] = editing.slug;
  }
  if (translation) pairs["touch-up-translation"] = translation.slug;
  if (formatting) pairs["touch-up-formatting"] = formatting.slug;
  for (const original of originals) {
    const rework = reeditServiceMap[original!.slug];
    if (rework && catalogue.services.some((s) => s.slug === rework)) pairs[rework] = original!.slug;
  }
  // Only services that exist and are active in this catalogue.
  return Object.fromEntries(Object.entries(pairs).filter(([slug]) => catalogue.services.some((s) => s.slug === slug && s.active)));
}

export interface ReworkView {
  order: { externalId: string; title: string };
  /** Rework service → the original service it reworks. */
  originals: Record<string, string>;
}

/** The original order of a rework form and the services it can have (null for an ordinary form). */
export async function reworkView(scope: Scope, form: OrderFormRow): Promise<ReworkView | null> {
  if (!form.rework || !form.rework_of_order_id) return null;
  const compute = async () => {
    const order = await reworkableOrder(scope, form.rework_of_order_id!, { enforce: false });
    if (!order) return null;
    const [catalogue, snapshot] = await Promise.all([getCatalogue(scope.app), scope.app.config.snapshot()]);
    return {
      order: { externalId: order.externalId, title: order.title },
      originals: reworkOriginals(catalogue, order.serviceSlugs, snapshot.config.reeditServiceMap),
    };
  };
  return scope.memo(`rework:${form.id}`, compute);
}

/**
 * Opens the rework form of one of the user's orders: the draft already started
 * for it, or a new one carrying the order's title, currency, word count,
 * language and area of study. Null when the order is not the user's.
 */
export async function startRework(scope: Scope, externalId: string): Promise<OrderFormRow | null> {
  const order = await reworkableOrder(scope, externalId);
  if (!order) return null;
  const existing = await scope.app.db
    .selectFrom("order_forms")
    .selectAll()
    .where("user_id", "=", scope.userId)
    .where("status", "=", "draft")
    .where("rework_of_order_id", "=", order.id)
    .orderBy("updated_at", "desc")
    .executeTakeFirst();
  // Touching it makes it the visitor's current draft.
  if (existing) return saveOrderForm(scope.app.db, existing, {});
  const form = await createOrderForm(scope.app.db, ownerOf(scope), { currencyIso: order.currencyIso, rework: true });
  return saveOrderForm(scope.app.db, form, {
    rework_of_order_id: order.id,
    project_title: order.title,
    word_count: order.wordCount,
    language_id: order.languageId,
    area_of_study_id: order.areaOfStudyId,
  });
}

/** The rework start screen as its schema parses it (page and API alike). */
export type ReworkBasicDetailsInput = ReworkBasicDetails;

/**
 * The rework start screen (PUT rework-basic-details): the revised manuscript
 * (or "upload later"), its word count and language, and optional instructions
 * for the editor (at most 2,000 characters). The goal is always a manuscript.
 */
export async function saveReworkBasicDetails(scope: Scope, form: OrderFormRow, input: ReworkBasicDetailsInput): Promise<SaveResult> {
  if (!form.rework) return invalid({ rework: "order:errors.not-a-rework-form" });
  const view = await reworkView(scope, form);
  if (!view) return invalid({ rework: "order:errors.rework-order-not-found" });
  // Checked before anything is saved: the step saves all of its fields or none.
  const checked = checkField(reworkInstructionsField, input.instructions);
  if (!checked.ok) return invalid({ instructions: checked.error });
  const instructions = checked.value;
  const saved = await saveGetStarted(scope, form, {
    customerGoal: "manuscript",
    uploadFilesLater: input.uploadFilesLater,
    wordCount: input.wordCount,
    languageId: input.languageId,
  });
  if (!saved.ok) return saved;
  return ok(await saveOrderForm(scope.app.db, saved.value, { rework_instructions: instructions || null }));
}
