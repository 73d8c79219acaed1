// The duplicate-order detour (spec 1 §4 "Details form"): an order with the same title in the last 7 days.
import { ok } from "#common/result";
import type { DuplicateChoice } from "#common/order-form/schemas";
import type { Scope } from "../../scope";
import { type OrderFormRow, saveOrderForm } from "../store";
import type { SaveResult } from "../types";

// ---- duplicate check --------------------------------------------------------------

/** An order of the same user with the same title in the last 7 days (spec 1 §4 "Details form"). */
export async function findDuplicate(scope: Scope, form: Pick<OrderFormRow, "project_title">) {
  if (!scope.userId || !form.project_title) return null;
  const row = await scope.app.db
    .selectFrom("orders")
    .select(["external_id", "title", "created_at"])
    .where("user_id", "=", scope.userId)
    .where((eb) => eb(eb.fn("lower", ["title"]), "=", form.project_title!.toLowerCase()))
    .where("created_at", ">", new Date(Date.now() - 7 * 24 * 3600 * 1000))
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!row) return null;
  const date = new Date(row.created_at);
  return {
    externalId: row.external_id,
    title: row.title,
    date: date.toISOString(),
    hoursAgo: Math.max(0, Math.floor((Date.now() - date.getTime()) / 3600_000)),
  };
}

/** The answer of the duplicate screen (parsed with duplicateChoiceForm): "question" leaves the form as it is. */
export async function saveDuplicateChoice(scope: Scope, form: OrderFormRow, choice: DuplicateChoice): Promise<SaveResult> {
  if (choice === "question") return ok(form);
  // Answered: the duplicate screen leaves the steps, and the order goes on to payment.
  return ok(await saveOrderForm(scope.app.db, form, { duplicate_choice: "new-order", current_step: "payment-details" }));
}
